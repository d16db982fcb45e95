/**
 * The cart: kept in this browser (localStorage), with the cart upsell
 * (GET /cart/upsell/cart, the offer for what the cart holds).
 */
import { store, StorefrontError } from "./api.js";
import { failure, h, link } from "./dom.js";
import { brl } from "./format.js";
import { priceTag } from "./price.js";

export interface CartItem {
  productId: number;
  /** The chosen variation (a product id), or null for a product without variations. */
  variationId: number | null;
  name: string;
  price: number;
  image: string | null;
  quantity: number;
}

const KEY = "loja-demo:carrinho";
/** Fired on window whenever the cart changes (the header's count listens). */
export const CART_CHANGED = "carrinho-alterado";

export function cartItems(): CartItem[] {
  try {
    const items: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(items) ? (items as CartItem[]) : [];
  } catch {
    return [];
  }
}

function save(items: CartItem[]): void {
  localStorage.setItem(KEY, JSON.stringify(items));
  window.dispatchEvent(new Event(CART_CHANGED));
}

const same = (a: CartItem, b: CartItem) =>
  a.productId === b.productId && a.variationId === b.variationId;

export function addToCart(item: CartItem): void {
  const items = cartItems();
  const present = items.find((other) => same(other, item));
  if (present) present.quantity += item.quantity;
  else items.push(item);
  save(items);
}

function setQuantity(item: CartItem, quantity: number): void {
  const items = cartItems()
    .map((other) => (same(other, item) ? { ...other, quantity } : other))
    .filter((other) => other.quantity > 0);
  save(items);
}

export const cartCount = (): number =>
  cartItems().reduce((total, item) => total + item.quantity, 0);

/** The page #/carrinho: the items, their subtotal and the upsell offer. */
export function cartPage(root: HTMLElement): void {
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

function renderItems(list: HTMLElement, refresh: () => void): void {
  const items = cartItems();
  if (items.length === 0) {
    list.replaceChildren(
      h("p", {}, "Seu carrinho está vazio."),
      h("p", {}, h("a", { href: link("/") }, "Continuar comprando")),
    );
    return;
  }
  const subtotal = items.reduce((total, item) => total + item.price * item.quantity, 0);
  list.replaceChildren(
    h(
      "ul",
      { class: "itens" },
      items.map((item) =>
        h(
          "li",
          { class: "item" },
          item.image ? h("img", { src: item.image, alt: "", width: 64, height: 64 }) : null,
          h(
            "div",
            {},
            h("a", { href: link(`/produto/${item.productId}`) }, item.name),
            h("p", { class: "item-preco" }, brl(item.price)),
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
                  // An item taken out changes the cart the offer is for.
                  if (item.quantity === 1) refresh();
                  else renderItems(list, refresh);
                },
              },
              "−",
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
                },
              },
              "+",
            ),
          ),
        ),
      ),
    ),
    h("p", { class: "subtotal" }, "Subtotal: ", h("strong", {}, brl(subtotal))),
  );
}

async function renderUpsell(
  section: HTMLElement,
  list: HTMLElement,
  refresh: () => void,
): Promise<void> {
  const items = cartItems();
  section.hidden = true;
  if (items.length === 0) return;
  // The cart as the API reads it: productId -> chosen variation (0: none).
  const variationMap = Object.fromEntries(
    items.map((item) => [String(item.productId), item.variationId ?? 0]),
  );
  try {
    const { data: upsell } = await store.upsell("cart", { variationMap });
    const product = upsell.upsellProduct;
    const image = product.medias[0];
    section.replaceChildren(
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
                  image: image ? (image.url ?? image.file) : null,
                  quantity: upsell.quantity,
                });
                // The offer is taken: show the cart again, but not the offer.
                renderItems(list, refresh);
                section.replaceChildren(h("p", {}, "Oferta adicionada ao carrinho."));
              },
            },
            upsell.displayButtonText,
          ),
        ),
      ),
    );
    section.hidden = false;
  } catch (error) {
    // No offer for this cart is a 404 the page expects: nothing to show.
    if (error instanceof StorefrontError && error.errorCode === "SERVICE_STORE_UPSELL_NOT_FOUND") {
      return;
    }
    section.replaceChildren(failure("Não foi possível carregar as ofertas."));
    section.hidden = false;
  }
}
