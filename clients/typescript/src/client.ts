/**
 * The storefront API, typed: a thin layer on openapi-fetch over the types openapi-typescript
 * generates from /api/schema/ (src/schema.d.ts, never edited by hand).
 *
 * - Every operation resolves to one `Result<T>`: `data` is the payload, whether the service
 *   wrapped it in the success envelope (`{"status": true, "data": ...}`) or answered it bare.
 * - Every refusal (4xx, 5xx) rejects with a `StorefrontError` carrying the error envelope's
 *   `errorCode`, `message` and, for a 422, the messages per field (`errors`).
 * - A bearer token (customer sign-in) goes in `Authorization`; writes take an
 *   `Idempotency-Key`.
 * - Query objects are encoded as the service reads them: `condition` in brackets
 *   (`condition[score][gte]=4`, a list inside as JSON: `condition[id][in]=[1,2]`), arrays of
 *   objects indexed (`items[0][productId]=1&items[0][quantity]=2`), other arrays comma
 *   separated (`fields=id,name`).
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";
export type Schemas = components["schemas"];

type Operation<P extends keyof paths, M extends "get" | "post"> = NonNullable<paths[P][M]>;
/** The query parameters of an operation, as generated. */
export type QueryOf<P extends keyof paths, M extends "get" | "post" = "get"> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The JSON body of a POST, as generated. */
export type BodyOf<P extends keyof paths> =
  Operation<P, "post"> extends { requestBody?: { content: { "application/json": infer B } } }
    ? B
    : never;
/** The payload of an answer: `data` of a success envelope, or the bare answer. */
export type Unwrapped<T> = T extends { status: boolean; data: infer D } ? D : T;

export interface Result<T> {
  /** The payload (unwrapped from the success envelope where the operation uses one). */
  data: T;
  status: number;
  /** The answer's ETag (cacheable GETs), for a later If-None-Match. */
  etag: string | null;
  /** True when the service replayed the first answer to this Idempotency-Key. */
  replayed: boolean;
  response: Response;
}

/** The error envelope of a refusal: `{"status": false, "data": {code, errorCode, message}}`. */
export class StorefrontError extends Error {
  override readonly name = "StorefrontError";

  constructor(
    /** The HTTP status (the envelope's `code`). */
    readonly status: number,
    /** Stable code of the refusal, e.g. VALIDATION_ERROR, PRODUCT_NOT_FOUND. */
    readonly errorCode: string,
    message: string,
    /** For a 422: messages per field. */
    readonly errors: Record<string, string[]> | undefined,
    /** Seconds to wait before retrying (429, 409, 503), from Retry-After. */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

export interface WriteOptions {
  /** A fresh value (a UUID) per logical write, reused for its retries. */
  idempotencyKey?: string;
}

export interface ClientOptions {
  /** The store's address, e.g. https://www.shop.example.com or http://127.0.0.1:8000. */
  baseUrl: string;
  /** The customer's bearer token (POST /publics/customers/login), or a function giving it. */
  token?: string | (() => string | null | undefined);
  /** Another fetch (tests, older runtimes). */
  fetch?: typeof globalThis.fetch;
}

function encode(text: string): string {
  return encodeURIComponent(text);
}

function isPlain(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function bracketed(prefix: string, value: unknown, parts: string[]): void {
  if (value === undefined) return;
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

/** The query string of `query` as the service parses it (apikit/querystring.py). */
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
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

function isEnvelope(body: unknown): body is { status: true; data: unknown } {
  return (
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    (body as { status?: unknown }).status === true &&
    "data" in body &&
    Object.keys(body).length === 2
  );
}

function refusal(response: Response, body: unknown): StorefrontError {
  const retry = response.headers.get("Retry-After");
  const retryAfter = retry !== null && /^\d+$/.test(retry) ? Number(retry) : null;
  const data = (body as { data?: Record<string, unknown> } | null)?.data;
  if (data && typeof data.errorCode === "string" && typeof data.message === "string") {
    const errors = data.errors as Record<string, string[]> | undefined;
    return new StorefrontError(response.status, data.errorCode, data.message, errors, retryAfter);
  }
  // Not the service's envelope (a proxy's page, a network-level refusal).
  const message = `HTTP ${response.status} ${response.statusText}`.trim();
  return new StorefrontError(response.status, `HTTP_${response.status}`, message, undefined, retryAfter);
}

async function settle<D>(
  pending: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<Result<Unwrapped<D>>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw refusal(response, error);
  const payload = isEnvelope(data) ? data.data : data;
  return {
    data: payload as Unwrapped<D>,
    status: response.status,
    etag: response.headers.get("ETag"),
    replayed: response.headers.get("Idempotent-Replayed") === "true",
    response,
  };
}

function writeHeaders(options: WriteOptions | undefined): Record<string, string> {
  return options?.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : {};
}

export function createStorefrontClient(options: ClientOptions) {
  let token = options.token;
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    querySerializer: serializeQuery,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  raw.use({
    onRequest({ request }) {
      const value = typeof token === "function" ? token() : token;
      if (value) request.headers.set("Authorization", `Bearer ${value}`);
      return request;
    },
  });

  return {
    /** The openapi-fetch client, for the operations this layer does not wrap. */
    raw,
    /** Sign a customer in (or out, with null) for the calls that follow. */
    setToken(value: ClientOptions["token"] | null) {
      token = value ?? undefined;
    },

    // --- payments ------------------------------------------------------------------------
    cardFlags: () => settle(raw.GET("/publics/payments/card-flags")),
    paymentConditions: (body: BodyOf<"/publics/payments/conditions">) =>
      settle(raw.POST("/publics/payments/conditions", { body })),

    // --- catalogue -----------------------------------------------------------------------
    categoryTree: () => settle(raw.GET("/publics/products/categories/tree")),
    categorySubtree: (categoryId: number) =>
      settle(
        raw.GET("/publics/products/categories/{categoryId}/tree", {
          params: { path: { categoryId } },
        }),
      ),
    /** Banner groups by code, at the contract's /api/v3 path. */
    banners: (codes: string[]) =>
      settle(raw.GET("/api/v3/publics/template/banners", { params: { query: { codes } } })),
    createInterest: (body: BodyOf<"/publics/products/interests">, write?: WriteOptions) =>
      settle(raw.POST("/publics/products/interests", { body, headers: writeHeaders(write) })),
    /** The catalogue listing: registers, pagination and facets; `q` searches. */
    products: (query: QueryOf<"/publics/products"> = {}) =>
      settle(raw.GET("/publics/products", { params: { query } })),
    /** A product's page (the full product). */
    product: (productId: number, query: QueryOf<"/publics/products/{productId}"> = {}) =>
      settle(
        raw.GET("/publics/products/{productId}", { params: { path: { productId }, query } }),
      ),
    /** Suggest as the shopper types: products, categories, brands, popular searches. */
    suggest: (q: string) =>
      settle(raw.GET("/publics/products/suggest", { params: { query: { q } } })),

    // --- shipping ------------------------------------------------------------------------
    zipcode: (countryCode: string, zipCode: string) =>
      settle(
        raw.GET("/shipping/zipcode/consult/{countryCode}/{zipCode}", {
          params: { path: { countryCode, zipCode } },
        }),
      ),
    quote: (query: QueryOf<"/publics/products/quote">) =>
      settle(raw.GET("/publics/products/quote", { params: { query } })),
    upsell: (locationId: string, query: QueryOf<"/cart/upsell/{locationId}"> = {}) =>
      settle(raw.GET("/cart/upsell/{locationId}", { params: { path: { locationId }, query } })),

    // --- reviews and comments ------------------------------------------------------------
    productReviews: (query: QueryOf<"/review/product"> = {}) =>
      settle(raw.GET("/review/product", { params: { query } })),
    salesChannelReviews: (query: QueryOf<"/review/sales-channel"> = {}) =>
      settle(raw.GET("/review/sales-channel", { params: { query } })),
    comments: (query: QueryOf<"/publics/products/comments"> = {}) =>
      settle(raw.GET("/publics/products/comments", { params: { query } })),
    createComment: (
      productId: number,
      body: BodyOf<"/publics/products/{productId}/comments">,
      write?: WriteOptions,
    ) =>
      settle(
        raw.POST("/publics/products/{productId}/comments", {
          params: { path: { productId } },
          body,
          headers: writeHeaders(write),
        }),
      ),
  };
}

export type StorefrontClient = ReturnType<typeof createStorefrontClient>;
