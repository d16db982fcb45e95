/**
 * The search box: suggestions as the shopper types (GET /publics/products/suggest), and the
 * search itself on submit (the listing with `q`: #/busca?q=...).
 */
import { store } from "./api.js";
import { h, link } from "./dom.js";
import { brl } from "./format.js";

const WAIT_MS = 200;
/** What the API accepts as q: 1 to 100 characters with a letter or a digit. */
const searchable = (text: string) => text.length <= 100 && /[\p{L}\p{N}]/u.test(text);

export function searchBox(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[name="q"]');
  if (!input) return;
  const list = h("div", { class: "sugestoes", id: "sugestoes", hidden: true });
  form.append(list);
  input.setAttribute("aria-controls", list.id);
  let timer: number | undefined;
  let asked = 0; // only the answer to the latest keystroke is shown

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
            data.products.map((product) =>
              h(
                "a",
                { href: link(`/produto/${product.id}`), class: "sugestao-produto" },
                h("span", {}, product.name),
                h("span", { class: "preco-por" }, brl(product.price.salePrice)),
              ),
            ),
          ),
          section(
            "Categorias",
            data.categories.map((category) =>
              h("a", { href: link(`/categoria/${category.id}`) }, category.name),
            ),
          ),
          section(
            "Marcas",
            data.brands.map((brand) =>
              h("a", { href: link("/", { marca: String(brand.id) }) }, brand.name),
            ),
          ),
          section(
            "Buscas populares",
            data.searches.map((search) => h("a", { href: link("/busca", { q: search }) }, search)),
          ),
        ].filter((group) => group !== null);
        list.replaceChildren(...(groups.length > 0 ? groups : [h("p", {}, "Nenhuma sugestão.")]));
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
      } catch {
        close(); // suggestions are a help: the search itself still works
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
    if (!form.contains(event.target as Node) || (event.target as Element).closest("a")) close();
  });
  window.addEventListener("hashchange", close);
}

function section(title: string, links: HTMLElement[]): HTMLElement | null {
  if (links.length === 0) return null;
  return h(
    "div",
    { class: "grupo" },
    h("p", { class: "grupo-titulo" }, title),
    h(
      "ul",
      {},
      links.map((item) => h("li", {}, item)),
    ),
  );
}
