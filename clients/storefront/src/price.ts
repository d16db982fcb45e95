/** A price as the listing and the product page show it. */
import type { Installment, Price } from "./api.js";
import { h } from "./dom.js";
import { brl } from "./format.js";

/** The most installments without interest (more than one), if any. */
export function interestFree(installments: Installment[]): Installment | undefined {
  return installments.filter((item) => item.fee === 0 && item.installment > 1).at(-1);
}

/** "de R$ 120,00" (struck, when the comparison price is higher) "R$ 99,90". */
export function priceTag(price: Price): HTMLElement {
  return h(
    "p",
    { class: "preco" },
    price.comparisonPrice > price.salePrice
      ? h("s", { class: "preco-de", "aria-label": "Preço anterior" }, brl(price.comparisonPrice))
      : null,
    h("strong", { class: "preco-por" }, brl(price.salePrice)),
  );
}

/** "3x de R$ 33,30 sem juros" */
export function installmentText(item: Installment): string {
  return `${item.installment}x de ${brl(item.installmentValue)} sem juros`;
}
