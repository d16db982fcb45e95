/** Numbers, money and dates as a Brazilian shopper reads them. */
import { h } from "./dom.js";

const money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
const decimal = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });
const cents = new Intl.NumberFormat("pt-BR", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const dayMonth = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit" });
const fullDay = new Intl.DateTimeFormat("pt-BR", {
  dateStyle: "long",
  timeZone: "America/Sao_Paulo",
});

/** R$ 1.234,56 */
export const brl = (value: number): string => money.format(value);

/** 4,3 */
export const number = (value: number): string => decimal.format(value);

/** 1.234,50 (money without the currency) */
export const amount = (value: number): string => cents.format(value);

/** "2026-12-07" (a calendar day, no time zone) as 07/12. */
export function dayAndMonth(day: string): string {
  const [year = 0, month = 1, date = 1] = day.slice(0, 10).split("-").map(Number);
  return dayMonth.format(new Date(year, month - 1, date));
}

/** A moment (ISO 8601) as 24 de julho de 2026, in the store's time zone. */
export const longDate = (moment: string): string => fullDay.format(new Date(moment));

/** 1 avaliação, 2 avaliações */
export function count(value: number, one: string, many: string): string {
  return `${value} ${value === 1 ? one : many}`;
}

/** Stars filled up to `score` (0 to 5, fractions too), read out as "4,3 de 5 estrelas". */
export function stars(score: number): HTMLElement {
  const filled = h("span", { class: "estrelas-cheias", style: `width: ${(score / 5) * 100}%` });
  filled.textContent = "★★★★★";
  return h(
    "span",
    { class: "estrelas", role: "img", "aria-label": `${number(score)} de 5 estrelas` },
    "★★★★★",
    filled,
  );
}
