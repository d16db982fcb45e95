/**
 * The product page (GET /publics/products/{id}): photos, price, installments
 * (POST /publics/payments/conditions), the variation to buy, then freight, reviews and
 * questions.
 */
import { store, type Media, type Product } from "./api.js";
import { addToCart } from "./cart.js";
import { failure, fill, h, link, loading } from "./dom.js";
import { brl, count, number, stars } from "./format.js";
import { freightBox } from "./freight.js";
import { installmentText, interestFree, priceTag } from "./price.js";
import { questionsSection } from "./questions.js";
import { reviewsSection } from "./reviews.js";

export async function productPage(root: HTMLElement, id: number): Promise<void> {
  root.replaceChildren(loading());
  let product: Product;
  try {
    product = (await store.product(id)).data;
  } catch {
    root.replaceChildren(
      failure("Produto não encontrado.", () => void productPage(root, id)),
      h("p", {}, h("a", { href: link("/") }, "Ver todos os produtos")),
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
        product.categoryBreadcrumb.map((node) =>
          h("a", { href: link(`/categoria/${node.id}`) }, node.name),
        ),
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
            `Código ${product.sku}`,
          ),
          product.review
            ? h(
                "p",
                { class: "nota" },
                h(
                  "a",
                  { href: "#avaliacoes", onclick: scrollTo("avaliacoes") },
                  stars(product.review.average),
                  ` ${number(product.review.average)} · `,
                  count(product.review.count, "avaliação", "avaliações"),
                ),
              )
            : null,
          priceTag(product.price),
          paymentConditions(product),
          buy.element,
          freightBox(buy.chosen),
        ),
      ),
      product.description?.description
        ? h(
            "section",
            { class: "descricao" },
            h("h2", {}, "Descrição"),
            h("p", {}, product.description.description),
          )
        : null,
      reviewsSection(product),
      questionsSection(product.id),
    ),
  );
}

/** Anchors within the page: the address keeps the route (#/produto/14). */
const scrollTo = (id: string) => (event: Event) => {
  event.preventDefault();
  document.getElementById(id)?.scrollIntoView({ behavior: "smooth" });
};

function gallery(medias: Media[], name: string): HTMLElement {
  const source = (media: Media) => media.url ?? media.file;
  const first = medias[0];
  if (!first) return h("div", { class: "galeria vazia" }, "Sem foto");
  const main = h("img", {
    class: "foto",
    src: source(first),
    alt: first.alternativeText ?? name,
    width: first.width ?? 320,
    height: first.height ?? 320,
  });
  return h(
    "div",
    { class: "galeria" },
    main,
    medias.length > 1
      ? h(
          "ul",
          { class: "miniaturas" },
          medias.map((media, index) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  "aria-label": `Foto ${index + 1} de ${medias.length}`,
                  onclick: () => {
                    main.src = source(media);
                    main.alt = media.alternativeText ?? name;
                  },
                },
                h("img", { src: source(media), alt: "", width: 64, height: 64 }),
              ),
            ),
          ),
        )
      : null,
  );
}

/** Cash discount and installments of the price, as the store's payment options give them. */
function paymentConditions(product: Product): HTMLElement {
  const box = h("div", { class: "pagamento", "aria-live": "polite" });
  store
    .paymentConditions({ items: [{ reference: product.sku, value: product.price.salePrice }] })
    .then(({ data }) => {
      const condition = data[0];
      if (!condition) return;
      const { cashDiscount, installments } = condition;
      const split = interestFree(installments);
      const longest = installments.at(-1);
      fill(
        box,
        cashDiscount && cashDiscount.discountPercentage > 0
          ? h(
              "p",
              { class: "a-vista" },
              h("strong", {}, brl(cashDiscount.valueWithDiscount)),
              ` à vista (${number(cashDiscount.discountPercentage)}% de desconto)`,
            )
          : null,
        split ? h("p", { class: "parcelas" }, `ou ${installmentText(split)}`) : null,
        longest && longest.installment > 1
          ? h(
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
                  installments.map((item) =>
                    h(
                      "tr",
                      {},
                      h("td", {}, `${item.installment}x de ${brl(item.installmentValue)}`),
                      h(
                        "td",
                        {},
                        item.fee > 0
                          ? `${brl(item.totalValue)} (${number(item.fee)}% a.m.)`
                          : `${brl(item.totalValue)} sem juros`,
                      ),
                    ),
                  ),
                ),
              ),
            )
          : null,
      );
    })
    .catch(() => box.replaceChildren(h("p", {}, "Condições de pagamento indisponíveis.")));
  return box;
}

/**
 * The variation (when the product has them) and "Adicionar ao carrinho". `chosen()` is the
 * product id to quote freight for: the variation chosen, else the product.
 */
function buyBox(product: Product): { element: HTMLElement; chosen: () => number } {
  const combinations = product.variations.combinations;
  const labels = new Map(product.variations.valueList.map((value) => [value.id, value.label]));
  const select =
    combinations.length > 0
      ? h(
          "select",
          { name: "variacao", required: true },
          h("option", { value: "" }, "Escolha uma opção"),
          combinations.map((combination) =>
            h(
              "option",
              { value: combination.productId, disabled: combination.stock === 0 },
              combination.combination.map((id) => labels.get(id) ?? id).join(" / ") +
                (combination.stock === 0 ? " (esgotado)" : ""),
            ),
          ),
        )
      : null;
  const soldOut = product.stock.availableStock === 0 && !product.flags.saleWithoutStock;
  const note = h("p", { class: "aviso-carrinho", "aria-live": "polite" });
  const image = product.medias[0];

  const element = h(
    "form",
    {
      class: "comprar",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const variationId = select?.value ? Number(select.value) : null;
        const variation = combinations.find((item) => item.productId === variationId);
        addToCart({
          productId: product.id,
          variationId,
          name: variation?.name ?? product.name,
          price: product.price.salePrice,
          image: image ? (image.url ?? image.file) : null,
          quantity: 1,
        });
        note.replaceChildren(
          "Produto adicionado. ",
          h("a", { href: link("/carrinho") }, "Ver carrinho"),
        );
      },
    },
    select ? h("label", {}, "Opção ", select) : null,
    h(
      "button",
      { type: "submit", class: "botao", disabled: soldOut },
      soldOut ? "Esgotado" : "Adicionar ao carrinho",
    ),
    note,
  );
  return { element, chosen: () => (select?.value ? Number(select.value) : product.id) };
}
