/**
 * The postal-code box: the freight options of one unit to a CEP, with their delivery dates
 * (GET /publics/products/quote with deliveryDates=true).
 */
import { store } from "./api.js";
import { h } from "./dom.js";
import { brl, count, dayAndMonth } from "./format.js";

/** `productId()`: what to quote, read when the shopper asks (a variation may be chosen). */
export function freightBox(productId: () => number): HTMLElement {
  const answer = h("div", { class: "fretes", "aria-live": "polite" });
  const input = h("input", {
    name: "cep",
    inputmode: "numeric",
    autocomplete: "postal-code",
    placeholder: "00000-000",
    pattern: "\\d{5}-?\\d{3}",
    maxlength: 9,
    required: true,
  });
  return h(
    "form",
    {
      class: "frete",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        answer.replaceChildren(h("p", {}, "Calculando…"));
        try {
          const { data } = await store.quote({
            targetZipCode: input.value.trim(),
            targetCountryCode: "BRA",
            items: [{ productId: productId(), quantity: 1 }],
            deliveryDates: true,
          });
          const options = data.quoteGroups
            .flatMap((group) => group.shippingOptions)
            .sort((a, b) => a.value - b.value);
          const [refused] = data.errorItems;
          if (refused || options.length === 0) {
            answer.replaceChildren(
              h(
                "p",
                {},
                refused?.errorCode === "SERVICE_STORE_PRODUCT_OUT_OF_STOCK"
                  ? "Produto sem estoque no momento."
                  : "Não entregamos este produto neste CEP.",
              ),
            );
            return;
          }
          answer.replaceChildren(
            h(
              "ul",
              {},
              options.map((option) => {
                const dates = option.deliveryEstimate;
                const when = !dates
                  ? `em até ${count(option.endShippingTime, "dia útil", "dias úteis")}`
                  : dates.readyOn
                    ? `retire a partir de ${dayAndMonth(dates.readyOn)}`
                    : dates.minDate === dates.maxDate
                      ? `chega em ${dayAndMonth(dates.maxDate)}`
                      : `chega entre ${dayAndMonth(dates.minDate)} e ${dayAndMonth(dates.maxDate)}`;
                return h(
                  "li",
                  { class: "opcao-frete" },
                  h(
                    "span",
                    { class: "transportadora" },
                    option.label.startsWith(option.carrierName)
                      ? option.label
                      : `${option.carrierName} ${option.label}`,
                  ),
                  h("strong", {}, option.value > 0 ? brl(option.value) : "Grátis"),
                  h("span", { class: "prazo" }, when),
                );
              }),
            ),
          );
        } catch {
          answer.replaceChildren(h("p", {}, "Não foi possível calcular o frete. Confira o CEP."));
        }
      },
    },
    h(
      "label",
      {},
      "Calcular frete e prazo",
      h("span", { class: "linha" }, input, h("button", { type: "submit" }, "Calcular")),
    ),
    answer,
  );
}
