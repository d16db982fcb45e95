/** Reviews of a product, five a page, newest first (GET /review/product). */
import { store, type Product } from "./api.js";
import { failure, fill, h } from "./dom.js";
import { count, longDate, number, stars } from "./format.js";

const PER_PAGE = 5;

export function reviewsSection(product: Product): HTMLElement {
  const list = h("div", { class: "lista-avaliacoes", "aria-live": "polite" });
  const summary = product.review;

  const show = async (page: number) => {
    try {
      const { data } = await store.productReviews({
        condition: { productId: product.id },
        order: ["-createdAt"],
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
        fields: ["id", "name", "score", "comment", "recommended", "createdAt"],
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
          registers.map((review) =>
            h(
              "li",
              { class: "avaliacao" },
              h("p", {}, stars(review.score), " ", h("strong", {}, review.name)),
              h(
                "p",
                { class: "detalhe" },
                longDate(review.createdAt),
                review.recommended ? " · Recomenda este produto" : "",
              ),
              review.comment ? h("p", {}, review.comment) : null,
            ),
          ),
        ),
        pagination.pages > 1
          ? h(
              "nav",
              { class: "paginas", "aria-label": "Páginas de avaliações" },
              h(
                "button",
                { type: "button", disabled: page === 1, onclick: () => void show(page - 1) },
                "‹ Anteriores",
              ),
              h("span", {}, `Página ${page} de ${pagination.pages}`),
              h(
                "button",
                {
                  type: "button",
                  disabled: page === pagination.pages,
                  onclick: () => void show(page + 1),
                },
                "Próximas ›",
              ),
            )
          : null,
      );
    } catch {
      list.replaceChildren(
        failure("Não foi possível carregar as avaliações.", () => void show(page)),
      );
    }
  };
  void show(1);

  return h(
    "section",
    { id: "avaliacoes", class: "avaliacoes" },
    h("h2", {}, "Avaliações"),
    summary
      ? h(
          "div",
          { class: "resumo-notas" },
          h(
            "p",
            { class: "media" },
            h("strong", {}, number(summary.average)),
            " ",
            stars(summary.average),
            " ",
            count(summary.count, "avaliação", "avaliações"),
          ),
          h(
            "ul",
            { class: "barras" },
            [...summary.scores]
              .reverse()
              .map((score) =>
                h(
                  "li",
                  {},
                  h("span", {}, `${score.score} ★`),
                  h("meter", {
                    min: 0,
                    max: summary.count,
                    value: score.count,
                    "aria-label": `${score.score} estrelas`,
                  }),
                  h("span", {}, score.count),
                ),
              ),
          ),
        )
      : null,
    list,
  );
}
