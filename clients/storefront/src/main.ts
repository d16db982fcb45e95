/**
 * The starter storefront: one page, routed by its address's hash.
 *
 *   #/                     every product (the listing, with its facets)
 *   #/categoria/2          a category's products
 *   #/busca?q=camiseta     search results
 *   #/produto/14           a product
 *   #/carrinho             the cart and its upsell offer
 *
 * The page's frame (header, search form, menu, main) is in the HTML the server sends
 * (storefront/templates/storefront/starter.html); this fills it.
 */
import { CART_CHANGED, cartCount, cartPage } from "./cart.js";
import { failure } from "./dom.js";
import { listingPage } from "./listing.js";
import { renderMenu } from "./menu.js";
import { productPage } from "./product.js";
import { searchBox } from "./search.js";

const main = document.querySelector<HTMLElement>("#conteudo");
const menu = document.querySelector<HTMLElement>("#menu");
const search = document.querySelector<HTMLFormElement>("#busca");
const cartLink = document.querySelector<HTMLElement>("#carrinho-quantidade");

function route(): void {
  if (!main) return;
  const [path = "/", query = ""] = window.location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const [page, id] = path.split("/").filter(Boolean);
  window.scrollTo(0, 0);
  if (page === "produto" && id) void productPage(main, Number(id));
  else if (page === "carrinho") cartPage(main);
  else if (page === "categoria" && id) void listingPage(main, path, Number(id), params);
  else void listingPage(main, page === "busca" ? "/busca" : "/", undefined, params);
}

function showCartCount(): void {
  if (cartLink) cartLink.textContent = String(cartCount());
}

if (menu) {
  renderMenu(menu).catch(() =>
    menu.replaceChildren(failure("Não foi possível carregar as categorias.")),
  );
}
if (search) searchBox(search);
showCartCount();
window.addEventListener(CART_CHANGED, showCartCount);
window.addEventListener("storage", showCartCount); // another tab changed the cart
window.addEventListener("hashchange", route);
route();
