/**
 * The category page, the search results and the home page: one listing
 * (GET /publics/products) with its facets. Its state is in the address:
 * #/categoria/2?marca=1,3&valor=2&min=50&max=200&ordem=price&pagina=2, #/busca?q=camiseta.
 */
import { store, type Facets, type ListedProduct } from "./api.js";
import { failure, fill, h, link, loading } from "./dom.js";
import { amount, brl, count, stars } from "./format.js";
import { categoryPath, categoryTree } from "./menu.js";
import { installmentText, interestFree, priceTag } from "./price.js";

const PAGE_SIZE = 12;
const ORDERS = [
  ["", "Destaques"],
  ["price", "Menor preço"],
  ["-price", "Maior preço"],
  ["-score", "Mais bem avaliados"],
  ["-createdAt", "Lançamentos"],
  ["name", "Nome (A-Z)"],
] as const;
const ORDER_VALUES = ["price", "-price", "-score", "-createdAt", "name", "relevance"] as const;
type Order = (typeof ORDER_VALUES)[number];

const ids = (text: string | null): number[] =>
  (text ?? "")
    .split(",")
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);

export async function listingPage(
  root: HTMLElement,
  path: string,
  categoryId: number | undefined,
  params: URLSearchParams,
): Promise<void> {
  const q = params.get("q")?.trim() || undefined;
  const brands = ids(params.get("marca"));
  const values = ids(params.get("valor"));
  const min = params.get("min") || undefined;
  const max = params.get("max") || undefined;
  const order = ORDER_VALUES.find((value) => value === params.get("ordem"));
  const page = Math.max(1, Number(params.get("pagina")) || 1);
  /** This page's address with some of its parameters changed (back to page 1). */
  const withParams = (changes: Record<string, string | undefined>) =>
    link(path, { ...Object.fromEntries(params), pagina: undefined, ...changes });

  root.replaceChildren(loading());
  try {
    const [{ data }, nodes] = await Promise.all([
      store.products({
        q,
        condition: {
          categoryId,
          brandId: brands.length > 0 ? { in: brands } : undefined,
          attributeValueId: values.length > 0 ? { in: values } : undefined,
          price: min || max ? { gte: min, lte: max } : undefined,
        },
        order: order ? [order] : undefined,
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE,
      }),
      categoryTree(),
    ]);
    const trail = categoryId ? categoryPath(nodes, categoryId) : [];
    const title = q ? `Resultados para “${q}”` : (trail.at(-1)?.name ?? "Todos os produtos");
    document.title = `${title} | Loja Demo`;
    const { registers, pagination, facets } = data;

    fill(
      root,
      trail.length > 1
        ? h(
            "nav",
            { class: "trilha", "aria-label": "Você está em" },
            trail
              .slice(0, -1)
              .map((node) => h("a", { href: link(`/categoria/${node.id}`) }, node.name)),
          )
        : null,
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
            orderSelect(order, q !== undefined, withParams),
          ),
          registers.length > 0
            ? h("ul", { class: "grade" }, registers.map(productCard))
            : h(
                "p",
                { class: "aviso" },
                "Nenhum produto encontrado. Tente outros filtros ou palavras.",
              ),
          pager(page, pagination.pages, (to) =>
            link(path, { ...Object.fromEntries(params), pagina: String(to) }),
          ),
        ),
      ),
    );
  } catch {
    root.replaceChildren(
      failure(
        "Não foi possível carregar os produtos.",
        () => void listingPage(root, path, categoryId, params),
      ),
    );
  }
}

export function productCard(product: ListedProduct): HTMLElement {
  const image = product.medias[0];
  const split = interestFree(product.price.installments);
  return h(
    "li",
    { class: "cartao" },
    h(
      "a",
      { href: link(`/produto/${product.id}`) },
      image
        ? h("img", {
            src: image.url ?? image.file,
            alt: image.alternativeText ?? "",
            width: 320,
            height: 320,
            loading: "lazy",
          })
        : null,
      h("span", { class: "nome" }, product.name),
    ),
    product.review
      ? h("p", { class: "nota" }, stars(product.review.average), ` (${product.review.count})`)
      : null,
    priceTag(product.price),
    split ? h("p", { class: "parcelas" }, installmentText(split)) : null,
    product.stock === 0 ? h("p", { class: "esgotado" }, "Esgotado") : null,
  );
}

interface Chosen {
  brands: number[];
  values: number[];
  min: string | undefined;
  max: string | undefined;
}

/** The facets: subcategories, brands and attribute values (ticking one filters), price. */
function filters(
  facets: Facets,
  chosen: Chosen,
  withParams: (changes: Record<string, string | undefined>) => string,
): HTMLElement {
  const toggle = (list: number[], id: number) =>
    (list.includes(id) ? list.filter((other) => other !== id) : [...list, id]).join(",") ||
    undefined;
  const box = (name: string, label: string, checked: boolean, target: string) =>
    h(
      "li",
      {},
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          name,
          checked,
          onchange: () => (window.location.hash = target),
        }),
        label,
      ),
    );
  const filtering =
    chosen.brands.length > 0 || chosen.values.length > 0 || chosen.min || chosen.max;
  const wide = window.matchMedia("(min-width: 900px)").matches;

  return h(
    "details",
    { class: "filtros", open: wide },
    h("summary", {}, "Filtrar"),
    facets.categories.length > 0
      ? h(
          "fieldset",
          {},
          h("legend", {}, "Categorias"),
          h(
            "ul",
            {},
            facets.categories.map((category) =>
              h(
                "li",
                {},
                h("a", { href: link(`/categoria/${category.id}`) }, category.name),
                ` (${category.count})`,
              ),
            ),
          ),
        )
      : null,
    facets.brands.length > 0
      ? h(
          "fieldset",
          {},
          h("legend", {}, "Marcas"),
          h(
            "ul",
            {},
            facets.brands.map((brand) =>
              box(
                "marca",
                `${brand.name} (${brand.count})`,
                chosen.brands.includes(brand.id),
                withParams({ marca: toggle(chosen.brands, brand.id) }),
              ),
            ),
          ),
        )
      : null,
    facets.attributes.map((attribute) =>
      h(
        "fieldset",
        {},
        h("legend", {}, attribute.name),
        h(
          "ul",
          {},
          attribute.values.map((value) =>
            box(
              "valor",
              `${value.label} (${value.count})`,
              chosen.values.includes(value.id),
              withParams({ valor: toggle(chosen.values, value.id) }),
            ),
          ),
        ),
      ),
    ),
    facets.price.min !== null && facets.price.max !== null
      ? priceFilter(facets.price.min, facets.price.max, chosen, withParams)
      : null,
    filtering
      ? h(
          "p",
          {},
          h(
            "a",
            {
              href: withParams({
                marca: undefined,
                valor: undefined,
                min: undefined,
                max: undefined,
              }),
            },
            "Limpar filtros",
          ),
        )
      : null,
  );
}

function priceFilter(
  lowest: number,
  highest: number,
  chosen: Chosen,
  withParams: (changes: Record<string, string | undefined>) => string,
): HTMLElement {
  const field = (name: string, label: string, value: string | undefined, hint: number) =>
    h(
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
        placeholder: amount(hint),
      }),
    );
  return h(
    "form",
    {
      class: "faixa-preco",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const form = new FormData(event.target as HTMLFormElement);
        const read = (name: string) => String(form.get(name) ?? "").trim() || undefined;
        window.location.hash = withParams({ min: read("min"), max: read("max") });
      },
    },
    h(
      "fieldset",
      {},
      h("legend", {}, `Preço (${brl(lowest)} a ${brl(highest)})`),
      field("min", "De", chosen.min, lowest),
      field("max", "Até", chosen.max, highest),
      h("button", { type: "submit" }, "Aplicar"),
    ),
  );
}

function orderSelect(
  order: Order | undefined,
  searching: boolean,
  withParams: (changes: Record<string, string | undefined>) => string,
): HTMLElement {
  const options: (readonly [string, string])[] = searching
    ? [["", "Mais relevantes"], ...ORDERS.slice(1)]
    : [...ORDERS];
  return h(
    "label",
    { class: "ordem" },
    "Ordenar: ",
    h(
      "select",
      {
        name: "ordem",
        onchange: (event: Event) => {
          window.location.hash = withParams({
            ordem: (event.target as HTMLSelectElement).value || undefined,
          });
        },
      },
      options.map(([value, label]) =>
        h("option", { value, selected: (order ?? "") === value }, label),
      ),
    ),
  );
}

/** « Anterior · Página 2 de 6 · Próxima » */
export function pager(
  page: number,
  pages: number,
  address: (page: number) => string,
): HTMLElement | null {
  if (pages <= 1) return null;
  return h(
    "nav",
    { class: "paginas", "aria-label": "Páginas" },
    page > 1 ? h("a", { href: address(page - 1), rel: "prev" }, "‹ Anterior") : h("span", {}),
    h("span", {}, `Página ${page} de ${pages}`),
    page < pages ? h("a", { href: address(page + 1), rel: "next" }, "Próxima ›") : h("span", {}),
  );
}
