// node_modules/openapi-fetch/dist/index.mjs
var PATH_PARAM_RE = /\{[^{}]+\}/g;
var supportsRequestInitExt = () => {
  return typeof process === "object" && Number.parseInt(process?.versions?.node?.substring(0, 2)) >= 18 && process.versions.undici;
};
function randomID() {
  return Math.random().toString(36).slice(2, 11);
}
function createClient(clientOptions) {
  let {
    baseUrl = "",
    Request: CustomRequest = globalThis.Request,
    fetch: baseFetch = globalThis.fetch,
    querySerializer: globalQuerySerializer,
    bodySerializer: globalBodySerializer,
    pathSerializer: globalPathSerializer,
    headers: baseHeaders,
    requestInitExt = void 0,
    ...baseOptions
  } = { ...clientOptions };
  requestInitExt = supportsRequestInitExt() ? requestInitExt : void 0;
  baseUrl = removeTrailingSlash(baseUrl);
  const globalMiddlewares = [];
  async function coreFetch(schemaPath, fetchOptions) {
    const {
      baseUrl: localBaseUrl,
      fetch = baseFetch,
      Request = CustomRequest,
      headers,
      params = {},
      parseAs = "json",
      querySerializer: requestQuerySerializer,
      bodySerializer = globalBodySerializer ?? defaultBodySerializer,
      pathSerializer: requestPathSerializer,
      body,
      middleware: requestMiddlewares = [],
      ...init
    } = fetchOptions || {};
    let finalBaseUrl = baseUrl;
    if (localBaseUrl) {
      finalBaseUrl = removeTrailingSlash(localBaseUrl) ?? baseUrl;
    }
    let querySerializer = typeof globalQuerySerializer === "function" ? globalQuerySerializer : createQuerySerializer(globalQuerySerializer);
    if (requestQuerySerializer) {
      querySerializer = typeof requestQuerySerializer === "function" ? requestQuerySerializer : createQuerySerializer({
        ...typeof globalQuerySerializer === "object" ? globalQuerySerializer : {},
        ...requestQuerySerializer
      });
    }
    const pathSerializer = requestPathSerializer || globalPathSerializer || defaultPathSerializer;
    const serializedBody = body === void 0 ? void 0 : bodySerializer(
      body,
      // Note: we declare mergeHeaders() both here and below because it’s a bit of a chicken-or-egg situation:
      // bodySerializer() needs all headers so we aren’t dropping ones set by the user, however,
      // the result of this ALSO sets the lowest-priority content-type header. So we re-merge below,
      // setting the content-type at the very beginning to be overwritten.
      // Lastly, based on the way headers work, it’s not a simple “present-or-not” check becauase null intentionally un-sets headers.
      mergeHeaders(baseHeaders, headers, params.header)
    );
    const finalHeaders = mergeHeaders(
      // with no body, we should not to set Content-Type
      serializedBody === void 0 || // if serialized body is FormData; browser will correctly set Content-Type & boundary expression
      serializedBody instanceof FormData ? {} : {
        "Content-Type": "application/json"
      },
      baseHeaders,
      headers,
      params.header
    );
    const finalMiddlewares = [...globalMiddlewares, ...requestMiddlewares];
    const requestInit = {
      redirect: "follow",
      ...baseOptions,
      ...init,
      body: serializedBody,
      headers: finalHeaders
    };
    let id;
    let options;
    let request = new Request(
      createFinalURL(schemaPath, { baseUrl: finalBaseUrl, params, querySerializer, pathSerializer }),
      requestInit
    );
    let response;
    for (const key in init) {
      if (!(key in request)) {
        request[key] = init[key];
      }
    }
    if (finalMiddlewares.length) {
      id = randomID();
      options = Object.freeze({
        baseUrl: finalBaseUrl,
        fetch,
        parseAs,
        querySerializer,
        bodySerializer,
        pathSerializer
      });
      for (const m of finalMiddlewares) {
        if (m && typeof m === "object" && typeof m.onRequest === "function") {
          const result = await m.onRequest({
            request,
            schemaPath,
            params,
            options,
            id
          });
          if (result) {
            if (result instanceof Request) {
              request = result;
            } else if (result instanceof Response) {
              response = result;
              break;
            } else {
              throw new Error("onRequest: must return new Request() or Response() when modifying the request");
            }
          }
        }
      }
    }
    if (!response) {
      try {
        response = await fetch(request, requestInitExt);
      } catch (error2) {
        let errorAfterMiddleware = error2;
        if (finalMiddlewares.length) {
          for (let i = finalMiddlewares.length - 1; i >= 0; i--) {
            const m = finalMiddlewares[i];
            if (m && typeof m === "object" && typeof m.onError === "function") {
              const result = await m.onError({
                request,
                error: errorAfterMiddleware,
                schemaPath,
                params,
                options,
                id
              });
              if (result) {
                if (result instanceof Response) {
                  errorAfterMiddleware = void 0;
                  response = result;
                  break;
                }
                if (result instanceof Error) {
                  errorAfterMiddleware = result;
                  continue;
                }
                throw new Error("onError: must return new Response() or instance of Error");
              }
            }
          }
        }
        if (errorAfterMiddleware) {
          throw errorAfterMiddleware;
        }
      }
      if (finalMiddlewares.length) {
        for (let i = finalMiddlewares.length - 1; i >= 0; i--) {
          const m = finalMiddlewares[i];
          if (m && typeof m === "object" && typeof m.onResponse === "function") {
            const result = await m.onResponse({
              request,
              response,
              schemaPath,
              params,
              options,
              id
            });
            if (result) {
              if (!(result instanceof Response)) {
                throw new Error("onResponse: must return new Response() when modifying the response");
              }
              response = result;
            }
          }
        }
      }
    }
    const contentLength = response.headers.get("Content-Length");
    if (response.status === 204 || request.method === "HEAD" || contentLength === "0" && !response.headers.get("Transfer-Encoding")?.includes("chunked")) {
      return response.ok ? { data: void 0, response } : { error: void 0, response };
    }
    if (response.ok) {
      const getResponseData = async () => {
        if (parseAs === "stream") {
          return response.body;
        }
        if (parseAs === "json" && !contentLength) {
          const raw = await response.text();
          return raw ? JSON.parse(raw) : void 0;
        }
        return await response[parseAs]();
      };
      return { data: await getResponseData(), response };
    }
    let error = await response.text();
    try {
      error = JSON.parse(error);
    } catch {
    }
    return { error, response };
  }
  return {
    request(method, url, init) {
      return coreFetch(url, { ...init, method: method.toUpperCase() });
    },
    /** Call a GET endpoint */
    GET(url, init) {
      return coreFetch(url, { ...init, method: "GET" });
    },
    /** Call a PUT endpoint */
    PUT(url, init) {
      return coreFetch(url, { ...init, method: "PUT" });
    },
    /** Call a POST endpoint */
    POST(url, init) {
      return coreFetch(url, { ...init, method: "POST" });
    },
    /** Call a DELETE endpoint */
    DELETE(url, init) {
      return coreFetch(url, { ...init, method: "DELETE" });
    },
    /** Call a OPTIONS endpoint */
    OPTIONS(url, init) {
      return coreFetch(url, { ...init, method: "OPTIONS" });
    },
    /** Call a HEAD endpoint */
    HEAD(url, init) {
      return coreFetch(url, { ...init, method: "HEAD" });
    },
    /** Call a PATCH endpoint */
    PATCH(url, init) {
      return coreFetch(url, { ...init, method: "PATCH" });
    },
    /** Call a TRACE endpoint */
    TRACE(url, init) {
      return coreFetch(url, { ...init, method: "TRACE" });
    },
    /** Register middleware */
    use(...middleware) {
      for (const m of middleware) {
        if (!m) {
          continue;
        }
        if (typeof m !== "object" || !("onRequest" in m || "onResponse" in m || "onError" in m)) {
          throw new Error("Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`");
        }
        globalMiddlewares.push(m);
      }
    },
    /** Unregister middleware */
    eject(...middleware) {
      for (const m of middleware) {
        const i = globalMiddlewares.indexOf(m);
        if (i !== -1) {
          globalMiddlewares.splice(i, 1);
        }
      }
    }
  };
}
function serializePrimitiveParam(name, value, options) {
  if (value === void 0 || value === null) {
    return "";
  }
  if (typeof value === "object") {
    throw new Error(
      "Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these."
    );
  }
  return `${name}=${options?.allowReserved === true ? value : encodeURIComponent(value)}`;
}
function serializeObjectParam(name, value, options) {
  if (!value || typeof value !== "object") {
    return "";
  }
  const values = [];
  const joiner = {
    simple: ",",
    label: ".",
    matrix: ";"
  }[options.style] || "&";
  if (options.style !== "deepObject" && options.explode === false) {
    for (const k in value) {
      values.push(k, options.allowReserved === true ? value[k] : encodeURIComponent(value[k]));
    }
    const final2 = values.join(",");
    switch (options.style) {
      case "form": {
        return `${name}=${final2}`;
      }
      case "label": {
        return `.${final2}`;
      }
      case "matrix": {
        return `;${name}=${final2}`;
      }
      default: {
        return final2;
      }
    }
  }
  for (const k in value) {
    const finalName = options.style === "deepObject" ? `${name}[${k}]` : k;
    values.push(serializePrimitiveParam(finalName, value[k], options));
  }
  const final = values.join(joiner);
  return options.style === "label" || options.style === "matrix" ? `${joiner}${final}` : final;
}
function serializeArrayParam(name, value, options) {
  if (!Array.isArray(value)) {
    return "";
  }
  if (options.explode === false) {
    const joiner2 = { form: ",", spaceDelimited: "%20", pipeDelimited: "|" }[options.style] || ",";
    const final = (options.allowReserved === true ? value : value.map((v) => encodeURIComponent(v))).join(joiner2);
    switch (options.style) {
      case "simple": {
        return final;
      }
      case "label": {
        return `.${final}`;
      }
      case "matrix": {
        return `;${name}=${final}`;
      }
      // case "spaceDelimited":
      // case "pipeDelimited":
      default: {
        return `${name}=${final}`;
      }
    }
  }
  const joiner = { simple: ",", label: ".", matrix: ";" }[options.style] || "&";
  const values = [];
  for (const v of value) {
    if (options.style === "simple" || options.style === "label") {
      values.push(options.allowReserved === true ? v : encodeURIComponent(v));
    } else {
      values.push(serializePrimitiveParam(name, v, options));
    }
  }
  return options.style === "label" || options.style === "matrix" ? `${joiner}${values.join(joiner)}` : values.join(joiner);
}
function createQuerySerializer(options) {
  return function querySerializer(queryParams) {
    const search2 = [];
    if (queryParams && typeof queryParams === "object") {
      for (const name in queryParams) {
        const value = queryParams[name];
        if (value === void 0 || value === null) {
          continue;
        }
        if (Array.isArray(value)) {
          if (value.length === 0) {
            continue;
          }
          search2.push(
            serializeArrayParam(name, value, {
              style: "form",
              explode: true,
              ...options?.array,
              allowReserved: options?.allowReserved || false
            })
          );
          continue;
        }
        if (typeof value === "object") {
          search2.push(
            serializeObjectParam(name, value, {
              style: "deepObject",
              explode: true,
              ...options?.object,
              allowReserved: options?.allowReserved || false
            })
          );
          continue;
        }
        search2.push(serializePrimitiveParam(name, value, options));
      }
    }
    return search2.join("&");
  };
}
function defaultPathSerializer(pathname, pathParams) {
  let nextURL = pathname;
  for (const match of pathname.match(PATH_PARAM_RE) ?? []) {
    let name = match.substring(1, match.length - 1);
    let explode = false;
    let style = "simple";
    if (name.endsWith("*")) {
      explode = true;
      name = name.substring(0, name.length - 1);
    }
    if (name.startsWith(".")) {
      style = "label";
      name = name.substring(1);
    } else if (name.startsWith(";")) {
      style = "matrix";
      name = name.substring(1);
    }
    if (!pathParams || pathParams[name] === void 0 || pathParams[name] === null) {
      continue;
    }
    const value = pathParams[name];
    if (Array.isArray(value)) {
      nextURL = nextURL.replace(match, serializeArrayParam(name, value, { style, explode }));
      continue;
    }
    if (typeof value === "object") {
      nextURL = nextURL.replace(match, serializeObjectParam(name, value, { style, explode }));
      continue;
    }
    if (style === "matrix") {
      nextURL = nextURL.replace(match, `;${serializePrimitiveParam(name, value)}`);
      continue;
    }
    nextURL = nextURL.replace(match, style === "label" ? `.${encodeURIComponent(value)}` : encodeURIComponent(value));
  }
  return nextURL;
}
function defaultBodySerializer(body, headers) {
  if (body instanceof FormData) {
    return body;
  }
  if (headers) {
    const contentType = headers.get instanceof Function ? headers.get("Content-Type") ?? headers.get("content-type") : headers["Content-Type"] ?? headers["content-type"];
    if (contentType === "application/x-www-form-urlencoded") {
      return new URLSearchParams(body).toString();
    }
  }
  return JSON.stringify(body);
}
function createFinalURL(pathname, options) {
  let finalURL = `${options.baseUrl}${pathname}`;
  if (options.params?.path) {
    finalURL = options.pathSerializer(finalURL, options.params.path);
  }
  let search2 = options.querySerializer(options.params.query ?? {});
  if (search2.startsWith("?")) {
    search2 = search2.substring(1);
  }
  if (search2) {
    finalURL += `?${search2}`;
  }
  return finalURL;
}
function mergeHeaders(...allHeaders) {
  const finalHeaders = new Headers();
  for (const h2 of allHeaders) {
    if (!h2 || typeof h2 !== "object") {
      continue;
    }
    const iterator = h2 instanceof Headers ? h2.entries() : Object.entries(h2);
    for (const [k, v] of iterator) {
      if (v === null) {
        finalHeaders.delete(k);
      } else if (Array.isArray(v)) {
        for (const v2 of v) {
          finalHeaders.append(k, v2);
        }
      } else if (v !== void 0) {
        finalHeaders.set(k, v);
      }
    }
  }
  return finalHeaders;
}
function removeTrailingSlash(url) {
  if (url.endsWith("/")) {
    return url.substring(0, url.length - 1);
  }
  return url;
}

// ../typescript/src/client.ts
var StorefrontError = class extends Error {
  constructor(status, errorCode, message, errors, retryAfter) {
    super(message);
    this.status = status;
    this.errorCode = errorCode;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }
  status;
  errorCode;
  errors;
  retryAfter;
  name = "StorefrontError";
};
function encode(text) {
  return encodeURIComponent(text);
}
function isPlain(value) {
  return value === null || typeof value !== "object";
}
function bracketed(prefix, value, parts) {
  if (value === void 0) return;
  if (Array.isArray(value)) {
    if (value.every(isPlain)) {
      parts.push(`${encode(prefix)}=${encode(JSON.stringify(value))}`);
    } else {
      value.forEach((item, index) => bracketed(`${prefix}[${index}]`, item, parts));
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) bracketed(`${prefix}[${key}]`, item, parts);
  } else {
    parts.push(`${encode(prefix)}=${encode(value === null ? "" : String(value))}`);
  }
}
function serializeQuery(query) {
  const parts = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === void 0 || value === null) continue;
    if (Array.isArray(value) && value.every(isPlain)) {
      parts.push(`${encode(name)}=${value.map((item) => encode(String(item))).join(",")}`);
    } else if (typeof value === "object") {
      bracketed(name, value, parts);
    } else {
      parts.push(`${encode(name)}=${encode(String(value))}`);
    }
  }
  return parts.join("&");
}
function isEnvelope(body) {
  return typeof body === "object" && body !== null && !Array.isArray(body) && body.status === true && "data" in body && Object.keys(body).length === 2;
}
function refusal(response, body) {
  const retry = response.headers.get("Retry-After");
  const retryAfter = retry !== null && /^\d+$/.test(retry) ? Number(retry) : null;
  const data = body?.data;
  if (data && typeof data.errorCode === "string" && typeof data.message === "string") {
    const errors = data.errors;
    return new StorefrontError(response.status, data.errorCode, data.message, errors, retryAfter);
  }
  const message = `HTTP ${response.status} ${response.statusText}`.trim();
  return new StorefrontError(response.status, `HTTP_${response.status}`, message, void 0, retryAfter);
}
async function settle(pending) {
  const { data, error, response } = await pending;
  if (!response.ok) throw refusal(response, error);
  const payload = isEnvelope(data) ? data.data : data;
  return {
    data: payload,
    status: response.status,
    etag: response.headers.get("ETag"),
    replayed: response.headers.get("Idempotent-Replayed") === "true",
    response
  };
}
function writeHeaders(options) {
  return options?.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : {};
}
function createStorefrontClient(options) {
  let token = options.token;
  const raw = createClient({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    querySerializer: serializeQuery,
    ...options.fetch ? { fetch: options.fetch } : {}
  });
  raw.use({
    onRequest({ request }) {
      const value = typeof token === "function" ? token() : token;
      if (value) request.headers.set("Authorization", `Bearer ${value}`);
      return request;
    }
  });
  return {
    /** The openapi-fetch client, for the operations this layer does not wrap. */
    raw,
    /** Sign a customer in (or out, with null) for the calls that follow. */
    setToken(value) {
      token = value ?? void 0;
    },
    // --- payments ------------------------------------------------------------------------
    cardFlags: () => settle(raw.GET("/publics/payments/card-flags")),
    paymentConditions: (body) => settle(raw.POST("/publics/payments/conditions", { body })),
    // --- catalogue -----------------------------------------------------------------------
    categoryTree: () => settle(raw.GET("/publics/products/categories/tree")),
    categorySubtree: (categoryId) => settle(
      raw.GET("/publics/products/categories/{categoryId}/tree", {
        params: { path: { categoryId } }
      })
    ),
    /** Banner groups by code, at the contract's /api/v3 path. */
    banners: (codes) => settle(raw.GET("/api/v3/publics/template/banners", { params: { query: { codes } } })),
    createInterest: (body, write) => settle(raw.POST("/publics/products/interests", { body, headers: writeHeaders(write) })),
    /** The catalogue listing: registers, pagination and facets; `q` searches. */
    products: (query = {}) => settle(raw.GET("/publics/products", { params: { query } })),
    /** A product's page (the full product). */
    product: (productId, query = {}) => settle(
      raw.GET("/publics/products/{productId}", { params: { path: { productId }, query } })
    ),
    /** Suggest as the shopper types: products, categories, brands, popular searches. */
    suggest: (q) => settle(raw.GET("/publics/products/suggest", { params: { query: { q } } })),
    // --- shipping ------------------------------------------------------------------------
    zipcode: (countryCode, zipCode) => settle(
      raw.GET("/shipping/zipcode/consult/{countryCode}/{zipCode}", {
        params: { path: { countryCode, zipCode } }
      })
    ),
    quote: (query) => settle(raw.GET("/publics/products/quote", { params: { query } })),
    upsell: (locationId, query = {}) => settle(raw.GET("/cart/upsell/{locationId}", { params: { path: { locationId }, query } })),
    // --- reviews and comments ------------------------------------------------------------
    productReviews: (query = {}) => settle(raw.GET("/review/product", { params: { query } })),
    salesChannelReviews: (query = {}) => settle(raw.GET("/review/sales-channel", { params: { query } })),
    comments: (query = {}) => settle(raw.GET("/publics/products/comments", { params: { query } })),
    createComment: (productId, body, write) => settle(
      raw.POST("/publics/products/{productId}/comments", {
        params: { path: { productId } },
        body,
        headers: writeHeaders(write)
      })
    )
  };
}

// src/api.ts
var store = createStorefrontClient({ baseUrl: window.location.origin });
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// src/dom.ts
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else if (value !== false && value !== null && value !== void 0) {
      element.setAttribute(name, String(value));
    }
  }
  return fill(element, ...children);
}
function fill(element, ...children) {
  const nodes = [];
  for (const child of children.flat()) {
    if (child === null || child === void 0 || child === false) continue;
    nodes.push(typeof child === "number" ? String(child) : child);
  }
  element.replaceChildren(...nodes);
  return element;
}
function link(path, query = {}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const text = params.toString();
  return `#${path}${text ? `?${text}` : ""}`;
}
function loading() {
  return h("p", { class: "carregando", role: "status" }, "Carregando…");
}
function failure(text, retry) {
  return h(
    "div",
    { class: "aviso erro", role: "alert" },
    h("p", {}, text),
    retry ? h("button", { type: "button", onclick: retry }, "Tentar de novo") : null
  );
}

// src/format.ts
var money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
var decimal = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });
var cents = new Intl.NumberFormat("pt-BR", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2
});
var dayMonth = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit" });
var fullDay = new Intl.DateTimeFormat("pt-BR", {
  dateStyle: "long",
  timeZone: "America/Sao_Paulo"
});
var brl = (value) => money.format(value);
var number = (value) => decimal.format(value);
var amount = (value) => cents.format(value);
function dayAndMonth(day) {
  const [year = 0, month = 1, date = 1] = day.slice(0, 10).split("-").map(Number);
  return dayMonth.format(new Date(year, month - 1, date));
}
var longDate = (moment) => fullDay.format(new Date(moment));
function count(value, one, many) {
  return `${value} ${value === 1 ? one : many}`;
}
function stars(score) {
  const filled = h("span", { class: "estrelas-cheias", style: `width: ${score / 5 * 100}%` });
  filled.textContent = "★★★★★";
  return h(
    "span",
    { class: "estrelas", role: "img", "aria-label": `${number(score)} de 5 estrelas` },
    "★★★★★",
    filled
  );
}

// src/price.ts
function interestFree(installments) {
  return installments.filter((item) => item.fee === 0 && item.installment > 1).at(-1);
}
function priceTag(price) {
  return h(
    "p",
    { class: "preco" },
    price.comparisonPrice > price.salePrice ? h("s", { class: "preco-de", "aria-label": "Preço anterior" }, brl(price.comparisonPrice)) : null,
    h("strong", { class: "preco-por" }, brl(price.salePrice))
  );
}
function installmentText(item) {
  return `${item.installment}x de ${brl(item.installmentValue)} sem juros`;
}

// src/cart.ts
var KEY = "loja-demo:carrinho";
var CART_CHANGED = "carrinho-alterado";
function cartItems() {
  try {
    const items = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}
function save(items) {
  localStorage.setItem(KEY, JSON.stringify(items));
  window.dispatchEvent(new Event(CART_CHANGED));
}
var same = (a, b) => a.productId === b.productId && a.variationId === b.variationId;
function addToCart(item) {
  const items = cartItems();
  const present = items.find((other) => same(other, item));
  if (present) present.quantity += item.quantity;
  else items.push(item);
  save(items);
}
function setQuantity(item, quantity) {
  const items = cartItems().map((other) => same(other, item) ? { ...other, quantity } : other).filter((other) => other.quantity > 0);
  save(items);
}
var cartCount = () => cartItems().reduce((total, item) => total + item.quantity, 0);
function cartPage(root) {
  document.title = "Carrinho | Loja Demo";
  const list = h("div", { class: "carrinho-itens" });
  const offer = h("section", { class: "upsell", "aria-live": "polite", hidden: true });
  root.replaceChildren(h("h1", {}, "Carrinho"), list, offer);
  const refresh = () => {
    renderItems(list, refresh);
    void renderUpsell(offer, list, refresh);
  };
  refresh();
}
function renderItems(list, refresh) {
  const items = cartItems();
  if (items.length === 0) {
    list.replaceChildren(
      h("p", {}, "Seu carrinho está vazio."),
      h("p", {}, h("a", { href: link("/") }, "Continuar comprando"))
    );
    return;
  }
  const subtotal = items.reduce((total, item) => total + item.price * item.quantity, 0);
  list.replaceChildren(
    h(
      "ul",
      { class: "itens" },
      items.map(
        (item) => h(
          "li",
          { class: "item" },
          item.image ? h("img", { src: item.image, alt: "", width: 64, height: 64 }) : null,
          h(
            "div",
            {},
            h("a", { href: link(`/produto/${item.productId}`) }, item.name),
            h("p", { class: "item-preco" }, brl(item.price))
          ),
          h(
            "div",
            { class: "quantidade" },
            h(
              "button",
              {
                type: "button",
                "aria-label": `Diminuir ${item.name}`,
                onclick: () => {
                  setQuantity(item, item.quantity - 1);
                  if (item.quantity === 1) refresh();
                  else renderItems(list, refresh);
                }
              },
              "−"
            ),
            h("span", { "aria-label": "Quantidade" }, item.quantity),
            h(
              "button",
              {
                type: "button",
                "aria-label": `Aumentar ${item.name}`,
                onclick: () => {
                  setQuantity(item, item.quantity + 1);
                  renderItems(list, refresh);
                }
              },
              "+"
            )
          )
        )
      )
    ),
    h("p", { class: "subtotal" }, "Subtotal: ", h("strong", {}, brl(subtotal)))
  );
}
async function renderUpsell(section2, list, refresh) {
  const items = cartItems();
  section2.hidden = true;
  if (items.length === 0) return;
  const variationMap = Object.fromEntries(
    items.map((item) => [String(item.productId), item.variationId ?? 0])
  );
  try {
    const { data: upsell } = await store.upsell("cart", { variationMap });
    const product = upsell.upsellProduct;
    const image = product.medias[0];
    section2.replaceChildren(
      h("h2", {}, upsell.displayTitle),
      h("p", {}, upsell.displayDescription),
      h(
        "div",
        { class: "upsell-produto" },
        image ? h("img", { src: image.url ?? image.file, alt: "", width: 96, height: 96 }) : null,
        h(
          "div",
          {},
          h("a", { class: "nome", href: link(`/produto/${product.id}`) }, product.name),
          priceTag({ ...product.price, comparisonPrice: product.originalPrice.salePrice }),
          h(
            "button",
            {
              type: "button",
              class: "botao",
              onclick: () => {
                addToCart({
                  productId: product.id,
                  variationId: null,
                  name: product.name,
                  price: product.price.salePrice,
                  image: image ? image.url ?? image.file : null,
                  quantity: upsell.quantity
                });
                renderItems(list, refresh);
                section2.replaceChildren(h("p", {}, "Oferta adicionada ao carrinho."));
              }
            },
            upsell.displayButtonText
          )
        )
      )
    );
    section2.hidden = false;
  } catch (error) {
    if (error instanceof StorefrontError && error.errorCode === "SERVICE_STORE_UPSELL_NOT_FOUND") {
      return;
    }
    section2.replaceChildren(failure("Não foi possível carregar as ofertas."));
    section2.hidden = false;
  }
}

// src/menu.ts
var tree;
function categoryTree() {
  tree ??= store.categoryTree().then((answer) => answer.data);
  return tree;
}
function categoryPath(nodes, id) {
  for (const node of nodes) {
    if (node.id === id) return [node];
    const below = categoryPath(node.children, id);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}
function branch(nodes, level) {
  return h(
    "ul",
    { class: `nivel-${level}` },
    nodes.map(
      (node) => h(
        "li",
        {},
        h("a", { href: link(`/categoria/${node.id}`) }, node.name),
        node.children.length > 0 ? branch(node.children, level + 1) : null
      )
    )
  );
}
async function renderMenu(nav) {
  const nodes = await categoryTree();
  const wide = window.matchMedia("(min-width: 900px)");
  const menu2 = h(
    "details",
    { class: "menu", open: wide.matches },
    h("summary", {}, "Categorias"),
    branch(nodes, 1)
  );
  wide.addEventListener("change", () => menu2.open = wide.matches);
  window.addEventListener("hashchange", () => {
    menu2.open = wide.matches;
    if (document.activeElement instanceof HTMLElement && menu2.contains(document.activeElement)) {
      document.activeElement.blur();
    }
  });
  nav.replaceChildren(menu2);
}

// src/listing.ts
var PAGE_SIZE = 12;
var ORDERS = [
  ["", "Destaques"],
  ["price", "Menor preço"],
  ["-price", "Maior preço"],
  ["-score", "Mais bem avaliados"],
  ["-createdAt", "Lançamentos"],
  ["name", "Nome (A-Z)"]
];
var ORDER_VALUES = ["price", "-price", "-score", "-createdAt", "name", "relevance"];
var ids = (text) => (text ?? "").split(",").map(Number).filter((id) => Number.isInteger(id) && id > 0);
async function listingPage(root, path, categoryId, params) {
  const q = params.get("q")?.trim() || void 0;
  const brands = ids(params.get("marca"));
  const values = ids(params.get("valor"));
  const min = params.get("min") || void 0;
  const max = params.get("max") || void 0;
  const order = ORDER_VALUES.find((value) => value === params.get("ordem"));
  const page = Math.max(1, Number(params.get("pagina")) || 1);
  const withParams = (changes) => link(path, { ...Object.fromEntries(params), pagina: void 0, ...changes });
  root.replaceChildren(loading());
  try {
    const [{ data }, nodes] = await Promise.all([
      store.products({
        q,
        condition: {
          categoryId,
          brandId: brands.length > 0 ? { in: brands } : void 0,
          attributeValueId: values.length > 0 ? { in: values } : void 0,
          price: min || max ? { gte: min, lte: max } : void 0
        },
        order: order ? [order] : void 0,
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE
      }),
      categoryTree()
    ]);
    const trail = categoryId ? categoryPath(nodes, categoryId) : [];
    const title = q ? `Resultados para “${q}”` : trail.at(-1)?.name ?? "Todos os produtos";
    document.title = `${title} | Loja Demo`;
    const { registers, pagination, facets } = data;
    fill(
      root,
      trail.length > 1 ? h(
        "nav",
        { class: "trilha", "aria-label": "Você está em" },
        trail.slice(0, -1).map((node) => h("a", { href: link(`/categoria/${node.id}`) }, node.name))
      ) : null,
      h("h1", {}, title),
      h(
        "div",
        { class: "listagem" },
        filters(facets, { brands, values, min, max }, withParams),
        h(
          "div",
          { class: "resultados" },
          h(
            "div",
            { class: "barra" },
            h("p", { role: "status" }, count(pagination.registers, "produto", "produtos")),
            orderSelect(order, q !== void 0, withParams)
          ),
          registers.length > 0 ? h("ul", { class: "grade" }, registers.map(productCard)) : h(
            "p",
            { class: "aviso" },
            "Nenhum produto encontrado. Tente outros filtros ou palavras."
          ),
          pager(
            page,
            pagination.pages,
            (to) => link(path, { ...Object.fromEntries(params), pagina: String(to) })
          )
        )
      )
    );
  } catch {
    root.replaceChildren(
      failure(
        "Não foi possível carregar os produtos.",
        () => void listingPage(root, path, categoryId, params)
      )
    );
  }
}
function productCard(product) {
  const image = product.medias[0];
  const split = interestFree(product.price.installments);
  return h(
    "li",
    { class: "cartao" },
    h(
      "a",
      { href: link(`/produto/${product.id}`) },
      image ? h("img", {
        src: image.url ?? image.file,
        alt: image.alternativeText ?? "",
        width: 320,
        height: 320,
        loading: "lazy"
      }) : null,
      h("span", { class: "nome" }, product.name)
    ),
    product.review ? h("p", { class: "nota" }, stars(product.review.average), ` (${product.review.count})`) : null,
    priceTag(product.price),
    split ? h("p", { class: "parcelas" }, installmentText(split)) : null,
    product.stock === 0 ? h("p", { class: "esgotado" }, "Esgotado") : null
  );
}
function filters(facets, chosen, withParams) {
  const toggle = (list, id) => (list.includes(id) ? list.filter((other) => other !== id) : [...list, id]).join(",") || void 0;
  const box = (name, label, checked, target) => h(
    "li",
    {},
    h(
      "label",
      {},
      h("input", {
        type: "checkbox",
        name,
        checked,
        onchange: () => window.location.hash = target
      }),
      label
    )
  );
  const filtering = chosen.brands.length > 0 || chosen.values.length > 0 || chosen.min || chosen.max;
  const wide = window.matchMedia("(min-width: 900px)").matches;
  return h(
    "details",
    { class: "filtros", open: wide },
    h("summary", {}, "Filtrar"),
    facets.categories.length > 0 ? h(
      "fieldset",
      {},
      h("legend", {}, "Categorias"),
      h(
        "ul",
        {},
        facets.categories.map(
          (category) => h(
            "li",
            {},
            h("a", { href: link(`/categoria/${category.id}`) }, category.name),
            ` (${category.count})`
          )
        )
      )
    ) : null,
    facets.brands.length > 0 ? h(
      "fieldset",
      {},
      h("legend", {}, "Marcas"),
      h(
        "ul",
        {},
        facets.brands.map(
          (brand) => box(
            "marca",
            `${brand.name} (${brand.count})`,
            chosen.brands.includes(brand.id),
            withParams({ marca: toggle(chosen.brands, brand.id) })
          )
        )
      )
    ) : null,
    facets.attributes.map(
      (attribute) => h(
        "fieldset",
        {},
        h("legend", {}, attribute.name),
        h(
          "ul",
          {},
          attribute.values.map(
            (value) => box(
              "valor",
              `${value.label} (${value.count})`,
              chosen.values.includes(value.id),
              withParams({ valor: toggle(chosen.values, value.id) })
            )
          )
        )
      )
    ),
    facets.price.min !== null && facets.price.max !== null ? priceFilter(facets.price.min, facets.price.max, chosen, withParams) : null,
    filtering ? h(
      "p",
      {},
      h(
        "a",
        {
          href: withParams({
            marca: void 0,
            valor: void 0,
            min: void 0,
            max: void 0
          })
        },
        "Limpar filtros"
      )
    ) : null
  );
}
function priceFilter(lowest, highest, chosen, withParams) {
  const field = (name, label, value, hint) => h(
    "label",
    {},
    label,
    h("input", {
      type: "number",
      name,
      min: 0,
      step: "0.01",
      inputmode: "decimal",
      value,
      placeholder: amount(hint)
    })
  );
  return h(
    "form",
    {
      class: "faixa-preco",
      onsubmit: (event) => {
        event.preventDefault();
        const form = new FormData(event.target);
        const read = (name) => String(form.get(name) ?? "").trim() || void 0;
        window.location.hash = withParams({ min: read("min"), max: read("max") });
      }
    },
    h(
      "fieldset",
      {},
      h("legend", {}, `Preço (${brl(lowest)} a ${brl(highest)})`),
      field("min", "De", chosen.min, lowest),
      field("max", "Até", chosen.max, highest),
      h("button", { type: "submit" }, "Aplicar")
    )
  );
}
function orderSelect(order, searching, withParams) {
  const options = searching ? [["", "Mais relevantes"], ...ORDERS.slice(1)] : [...ORDERS];
  return h(
    "label",
    { class: "ordem" },
    "Ordenar: ",
    h(
      "select",
      {
        name: "ordem",
        onchange: (event) => {
          window.location.hash = withParams({
            ordem: event.target.value || void 0
          });
        }
      },
      options.map(
        ([value, label]) => h("option", { value, selected: (order ?? "") === value }, label)
      )
    )
  );
}
function pager(page, pages, address) {
  if (pages <= 1) return null;
  return h(
    "nav",
    { class: "paginas", "aria-label": "Páginas" },
    page > 1 ? h("a", { href: address(page - 1), rel: "prev" }, "‹ Anterior") : h("span", {}),
    h("span", {}, `Página ${page} de ${pages}`),
    page < pages ? h("a", { href: address(page + 1), rel: "next" }, "Próxima ›") : h("span", {})
  );
}

// src/freight.ts
function freightBox(productId) {
  const answer = h("div", { class: "fretes", "aria-live": "polite" });
  const input = h("input", {
    name: "cep",
    inputmode: "numeric",
    autocomplete: "postal-code",
    placeholder: "00000-000",
    pattern: "\\d{5}-?\\d{3}",
    maxlength: 9,
    required: true
  });
  return h(
    "form",
    {
      class: "frete",
      onsubmit: async (event) => {
        event.preventDefault();
        answer.replaceChildren(h("p", {}, "Calculando…"));
        try {
          const { data } = await store.quote({
            targetZipCode: input.value.trim(),
            targetCountryCode: "BRA",
            items: [{ productId: productId(), quantity: 1 }],
            deliveryDates: true
          });
          const options = data.quoteGroups.flatMap((group) => group.shippingOptions).sort((a, b) => a.value - b.value);
          const [refused] = data.errorItems;
          if (refused || options.length === 0) {
            answer.replaceChildren(
              h(
                "p",
                {},
                refused?.errorCode === "SERVICE_STORE_PRODUCT_OUT_OF_STOCK" ? "Produto sem estoque no momento." : "Não entregamos este produto neste CEP."
              )
            );
            return;
          }
          answer.replaceChildren(
            h(
              "ul",
              {},
              options.map((option) => {
                const dates = option.deliveryEstimate;
                const when = !dates ? `em até ${count(option.endShippingTime, "dia útil", "dias úteis")}` : dates.readyOn ? `retire a partir de ${dayAndMonth(dates.readyOn)}` : dates.minDate === dates.maxDate ? `chega em ${dayAndMonth(dates.maxDate)}` : `chega entre ${dayAndMonth(dates.minDate)} e ${dayAndMonth(dates.maxDate)}`;
                return h(
                  "li",
                  { class: "opcao-frete" },
                  h(
                    "span",
                    { class: "transportadora" },
                    option.label.startsWith(option.carrierName) ? option.label : `${option.carrierName} ${option.label}`
                  ),
                  h("strong", {}, option.value > 0 ? brl(option.value) : "Grátis"),
                  h("span", { class: "prazo" }, when)
                );
              })
            )
          );
        } catch {
          answer.replaceChildren(h("p", {}, "Não foi possível calcular o frete. Confira o CEP."));
        }
      }
    },
    h(
      "label",
      {},
      "Calcular frete e prazo",
      h("span", { class: "linha" }, input, h("button", { type: "submit" }, "Calcular"))
    ),
    answer
  );
}

// src/questions.ts
var PER_PAGE = 10;
var FIELD_HINTS = {
  customerName: "Informe seu nome (pelo menos 3 letras).",
  customerEmail: "Informe um e-mail válido.",
  message: "Escreva sua pergunta."
};
function questionsSection(productId) {
  const list = h("div", { class: "lista-perguntas" });
  let shown = 0;
  const more = async () => {
    try {
      const { data: questions } = await store.comments({
        condition: { productId, parentCommentId: { isNull: true } },
        order: ["-createdAt"],
        limit: PER_PAGE,
        offset: shown
      });
      const asked = questions.registers.filter((question) => question.totalReplies > 0);
      const { data: replies } = asked.length > 0 ? await store.comments({
        condition: { parentCommentId: { in: asked.map((question) => question.id) } },
        order: ["createdAt"],
        limit: 100
      }) : { data: { registers: [] } };
      if (shown === 0 && questions.registers.length === 0) {
        list.replaceChildren(h("p", {}, "Ninguém perguntou ainda. Seja o primeiro!"));
        return;
      }
      shown += questions.registers.length;
      list.querySelector(".mais")?.remove();
      list.append(
        ...questions.registers.map(
          (question) => h(
            "div",
            { class: "pergunta" },
            h("p", {}, h("strong", {}, question.message)),
            h(
              "p",
              { class: "detalhe" },
              `${question.customerName} · ${longDate(question.createdAt)}`
            ),
            replies.registers.filter((reply) => reply.parentCommentId === question.id).map(
              (reply) => h(
                "blockquote",
                { class: "resposta" },
                h("p", {}, reply.message),
                h(
                  "p",
                  { class: "detalhe" },
                  reply.replyByUser ? `Resposta da loja (${reply.userName})` : reply.customerName
                )
              )
            )
          )
        ),
        shown < questions.pagination.registers ? h(
          "button",
          { type: "button", class: "mais", onclick: () => void more() },
          "Ver mais perguntas"
        ) : ""
      );
    } catch {
      list.replaceChildren(failure("Não foi possível carregar as perguntas."));
    }
  };
  void more();
  return h(
    "section",
    { id: "perguntas", class: "perguntas" },
    h("h2", {}, "Perguntas e respostas"),
    list,
    askForm(productId)
  );
}
function askForm(productId) {
  const note = h("p", { class: "aviso-form", role: "status" });
  const field = (name, label, control) => h("label", {}, label, control, h("span", { class: "erro-campo", "data-campo": name }));
  const form = h(
    "form",
    {
      class: "perguntar",
      onsubmit: async (event) => {
        event.preventDefault();
        const data = new FormData(form);
        const read = (name) => String(data.get(name) ?? "").trim();
        const button = form.querySelector("button");
        form.querySelectorAll(".erro-campo").forEach((hint) => hint.textContent = "");
        if (button) button.disabled = true;
        try {
          await store.createComment(
            productId,
            {
              message: read("message"),
              customerName: read("customerName"),
              customerEmail: read("customerEmail")
            },
            { idempotencyKey: newKey() }
          );
          form.reset();
          note.textContent = "Obrigado! Sua pergunta foi enviada e aparece aqui depois de aprovada pela loja.";
        } catch (error) {
          const refused = error instanceof StorefrontError ? Object.keys(error.errors ?? {}) : [];
          for (const name of refused) {
            const hint = form.querySelector(`[data-campo="${name}"]`);
            if (hint) hint.textContent = FIELD_HINTS[name] ?? "Confira este campo.";
          }
          note.textContent = refused.length > 0 ? "Confira os campos destacados." : "Não foi possível enviar agora. Tente de novo em instantes.";
        } finally {
          if (button) button.disabled = false;
        }
      }
    },
    h("h3", {}, "Faça uma pergunta"),
    field(
      "customerName",
      "Nome",
      h("input", {
        name: "customerName",
        required: true,
        minlength: 3,
        maxlength: 100,
        autocomplete: "name"
      })
    ),
    field(
      "customerEmail",
      "E-mail",
      h("input", {
        name: "customerEmail",
        type: "email",
        required: true,
        maxlength: 254,
        autocomplete: "email"
      })
    ),
    field(
      "message",
      "Pergunta",
      h("textarea", { name: "message", required: true, maxlength: 2e3, rows: 3 })
    ),
    h("button", { type: "submit", class: "botao" }, "Enviar pergunta"),
    note
  );
  return form;
}

// src/reviews.ts
var PER_PAGE2 = 5;
function reviewsSection(product) {
  const list = h("div", { class: "lista-avaliacoes", "aria-live": "polite" });
  const summary = product.review;
  const show = async (page) => {
    try {
      const { data } = await store.productReviews({
        condition: { productId: product.id },
        order: ["-createdAt"],
        limit: PER_PAGE2,
        offset: (page - 1) * PER_PAGE2,
        fields: ["id", "name", "score", "comment", "recommended", "createdAt"]
      });
      const { registers, pagination } = data;
      if (registers.length === 0) {
        list.replaceChildren(h("p", {}, "Este produto ainda não tem avaliações."));
        return;
      }
      fill(
        list,
        h(
          "ul",
          {},
          registers.map(
            (review) => h(
              "li",
              { class: "avaliacao" },
              h("p", {}, stars(review.score), " ", h("strong", {}, review.name)),
              h(
                "p",
                { class: "detalhe" },
                longDate(review.createdAt),
                review.recommended ? " · Recomenda este produto" : ""
              ),
              review.comment ? h("p", {}, review.comment) : null
            )
          )
        ),
        pagination.pages > 1 ? h(
          "nav",
          { class: "paginas", "aria-label": "Páginas de avaliações" },
          h(
            "button",
            { type: "button", disabled: page === 1, onclick: () => void show(page - 1) },
            "‹ Anteriores"
          ),
          h("span", {}, `Página ${page} de ${pagination.pages}`),
          h(
            "button",
            {
              type: "button",
              disabled: page === pagination.pages,
              onclick: () => void show(page + 1)
            },
            "Próximas ›"
          )
        ) : null
      );
    } catch {
      list.replaceChildren(
        failure("Não foi possível carregar as avaliações.", () => void show(page))
      );
    }
  };
  void show(1);
  return h(
    "section",
    { id: "avaliacoes", class: "avaliacoes" },
    h("h2", {}, "Avaliações"),
    summary ? h(
      "div",
      { class: "resumo-notas" },
      h(
        "p",
        { class: "media" },
        h("strong", {}, number(summary.average)),
        " ",
        stars(summary.average),
        " ",
        count(summary.count, "avaliação", "avaliações")
      ),
      h(
        "ul",
        { class: "barras" },
        [...summary.scores].reverse().map(
          (score) => h(
            "li",
            {},
            h("span", {}, `${score.score} ★`),
            h("meter", {
              min: 0,
              max: summary.count,
              value: score.count,
              "aria-label": `${score.score} estrelas`
            }),
            h("span", {}, score.count)
          )
        )
      )
    ) : null,
    list
  );
}

// src/product.ts
async function productPage(root, id) {
  root.replaceChildren(loading());
  let product;
  try {
    product = (await store.product(id)).data;
  } catch {
    root.replaceChildren(
      failure("Produto não encontrado.", () => void productPage(root, id)),
      h("p", {}, h("a", { href: link("/") }, "Ver todos os produtos"))
    );
    return;
  }
  document.title = `${product.name} | Loja Demo`;
  const buy = buyBox(product);
  root.replaceChildren(
    h(
      "article",
      { class: "produto" },
      h(
        "nav",
        { class: "trilha", "aria-label": "Você está em" },
        product.categoryBreadcrumb.map(
          (node) => h("a", { href: link(`/categoria/${node.id}`) }, node.name)
        )
      ),
      h(
        "div",
        { class: "produto-topo" },
        gallery(product.medias, product.name),
        h(
          "div",
          { class: "produto-info" },
          h("h1", {}, product.name),
          h(
            "p",
            { class: "detalhe" },
            product.brand ? `${product.brand.name} · ` : "",
            `Código ${product.sku}`
          ),
          product.review ? h(
            "p",
            { class: "nota" },
            h(
              "a",
              { href: "#avaliacoes", onclick: scrollTo("avaliacoes") },
              stars(product.review.average),
              ` ${number(product.review.average)} · `,
              count(product.review.count, "avaliação", "avaliações")
            )
          ) : null,
          priceTag(product.price),
          paymentConditions(product),
          buy.element,
          freightBox(buy.chosen)
        )
      ),
      product.description?.description ? h(
        "section",
        { class: "descricao" },
        h("h2", {}, "Descrição"),
        h("p", {}, product.description.description)
      ) : null,
      reviewsSection(product),
      questionsSection(product.id)
    )
  );
}
var scrollTo = (id) => (event) => {
  event.preventDefault();
  document.getElementById(id)?.scrollIntoView({ behavior: "smooth" });
};
function gallery(medias, name) {
  const source = (media) => media.url ?? media.file;
  const first = medias[0];
  if (!first) return h("div", { class: "galeria vazia" }, "Sem foto");
  const main2 = h("img", {
    class: "foto",
    src: source(first),
    alt: first.alternativeText ?? name,
    width: first.width ?? 320,
    height: first.height ?? 320
  });
  return h(
    "div",
    { class: "galeria" },
    main2,
    medias.length > 1 ? h(
      "ul",
      { class: "miniaturas" },
      medias.map(
        (media, index) => h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              "aria-label": `Foto ${index + 1} de ${medias.length}`,
              onclick: () => {
                main2.src = source(media);
                main2.alt = media.alternativeText ?? name;
              }
            },
            h("img", { src: source(media), alt: "", width: 64, height: 64 })
          )
        )
      )
    ) : null
  );
}
function paymentConditions(product) {
  const box = h("div", { class: "pagamento", "aria-live": "polite" });
  store.paymentConditions({ items: [{ reference: product.sku, value: product.price.salePrice }] }).then(({ data }) => {
    const condition = data[0];
    if (!condition) return;
    const { cashDiscount, installments } = condition;
    const split = interestFree(installments);
    const longest = installments.at(-1);
    fill(
      box,
      cashDiscount && cashDiscount.discountPercentage > 0 ? h(
        "p",
        { class: "a-vista" },
        h("strong", {}, brl(cashDiscount.valueWithDiscount)),
        ` à vista (${number(cashDiscount.discountPercentage)}% de desconto)`
      ) : null,
      split ? h("p", { class: "parcelas" }, `ou ${installmentText(split)}`) : null,
      longest && longest.installment > 1 ? h(
        "details",
        { class: "tabela-parcelas" },
        h("summary", {}, `Parcele em até ${longest.installment}x`),
        h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", {}, "Parcelas"), h("th", {}, "Total"))),
          h(
            "tbody",
            {},
            installments.map(
              (item) => h(
                "tr",
                {},
                h("td", {}, `${item.installment}x de ${brl(item.installmentValue)}`),
                h(
                  "td",
                  {},
                  item.fee > 0 ? `${brl(item.totalValue)} (${number(item.fee)}% a.m.)` : `${brl(item.totalValue)} sem juros`
                )
              )
            )
          )
        )
      ) : null
    );
  }).catch(() => box.replaceChildren(h("p", {}, "Condições de pagamento indisponíveis.")));
  return box;
}
function buyBox(product) {
  const combinations = product.variations.combinations;
  const labels = new Map(product.variations.valueList.map((value) => [value.id, value.label]));
  const select = combinations.length > 0 ? h(
    "select",
    { name: "variacao", required: true },
    h("option", { value: "" }, "Escolha uma opção"),
    combinations.map(
      (combination) => h(
        "option",
        { value: combination.productId, disabled: combination.stock === 0 },
        combination.combination.map((id) => labels.get(id) ?? id).join(" / ") + (combination.stock === 0 ? " (esgotado)" : "")
      )
    )
  ) : null;
  const soldOut = product.stock.availableStock === 0 && !product.flags.saleWithoutStock;
  const note = h("p", { class: "aviso-carrinho", "aria-live": "polite" });
  const image = product.medias[0];
  const element = h(
    "form",
    {
      class: "comprar",
      onsubmit: (event) => {
        event.preventDefault();
        const variationId = select?.value ? Number(select.value) : null;
        const variation = combinations.find((item) => item.productId === variationId);
        addToCart({
          productId: product.id,
          variationId,
          name: variation?.name ?? product.name,
          price: product.price.salePrice,
          image: image ? image.url ?? image.file : null,
          quantity: 1
        });
        note.replaceChildren(
          "Produto adicionado. ",
          h("a", { href: link("/carrinho") }, "Ver carrinho")
        );
      }
    },
    select ? h("label", {}, "Opção ", select) : null,
    h(
      "button",
      { type: "submit", class: "botao", disabled: soldOut },
      soldOut ? "Esgotado" : "Adicionar ao carrinho"
    ),
    note
  );
  return { element, chosen: () => select?.value ? Number(select.value) : product.id };
}

// src/search.ts
var WAIT_MS = 200;
var searchable = (text) => text.length <= 100 && /[\p{L}\p{N}]/u.test(text);
function searchBox(form) {
  const input = form.querySelector('input[name="q"]');
  if (!input) return;
  const list = h("div", { class: "sugestoes", id: "sugestoes", hidden: true });
  form.append(list);
  input.setAttribute("aria-controls", list.id);
  let timer;
  let asked = 0;
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    const text = input.value.trim();
    if (!searchable(text)) return close();
    timer = window.setTimeout(async () => {
      const mine = ++asked;
      try {
        const { data } = await store.suggest(text);
        if (mine !== asked) return;
        const groups = [
          section(
            "Produtos",
            data.products.map(
              (product) => h(
                "a",
                { href: link(`/produto/${product.id}`), class: "sugestao-produto" },
                h("span", {}, product.name),
                h("span", { class: "preco-por" }, brl(product.price.salePrice))
              )
            )
          ),
          section(
            "Categorias",
            data.categories.map(
              (category) => h("a", { href: link(`/categoria/${category.id}`) }, category.name)
            )
          ),
          section(
            "Marcas",
            data.brands.map(
              (brand) => h("a", { href: link("/", { marca: String(brand.id) }) }, brand.name)
            )
          ),
          section(
            "Buscas populares",
            data.searches.map((search2) => h("a", { href: link("/busca", { q: search2 }) }, search2))
          )
        ].filter((group) => group !== null);
        list.replaceChildren(...groups.length > 0 ? groups : [h("p", {}, "Nenhuma sugestão.")]);
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
      } catch {
        close();
      }
    }, WAIT_MS);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!searchable(text)) return;
    close();
    window.location.hash = link("/busca", { q: text });
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  document.addEventListener("click", (event) => {
    if (!form.contains(event.target) || event.target.closest("a")) close();
  });
  window.addEventListener("hashchange", close);
}
function section(title, links) {
  if (links.length === 0) return null;
  return h(
    "div",
    { class: "grupo" },
    h("p", { class: "grupo-titulo" }, title),
    h(
      "ul",
      {},
      links.map((item) => h("li", {}, item))
    )
  );
}

// src/main.ts
var main = document.querySelector("#conteudo");
var menu = document.querySelector("#menu");
var search = document.querySelector("#busca");
var cartLink = document.querySelector("#carrinho-quantidade");
function route() {
  if (!main) return;
  const [path = "/", query = ""] = window.location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const [page, id] = path.split("/").filter(Boolean);
  window.scrollTo(0, 0);
  if (page === "produto" && id) void productPage(main, Number(id));
  else if (page === "carrinho") cartPage(main);
  else if (page === "categoria" && id) void listingPage(main, path, Number(id), params);
  else void listingPage(main, page === "busca" ? "/busca" : "/", void 0, params);
}
function showCartCount() {
  if (cartLink) cartLink.textContent = String(cartCount());
}
if (menu) {
  renderMenu(menu).catch(
    () => menu.replaceChildren(failure("Não foi possível carregar as categorias."))
  );
}
if (search) searchBox(search);
showCartCount();
window.addEventListener(CART_CHANGED, showCartCount);
window.addEventListener("storage", showCartCount);
window.addEventListener("hashchange", route);
route();
