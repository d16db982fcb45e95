/** Building the page: elements from data, never HTML strings (so no text from the API can
 * become markup). */

type Child = Node | string | number | null | undefined | false;
type Value = string | number | boolean | null | undefined | ((event: Event) => void);

/**
 * `h("a", {href: "#/", class: "marca"}, "Loja")`: an element with its attributes (`on...`
 * keys add an event listener; false, null and undefined leave the attribute out) and
 * children (strings become text).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, Value> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, String(value));
    }
  }
  return fill(element, ...children) as HTMLElementTagNameMap[K];
}

/** Replaces what `element` shows by `children` (null, undefined and false are skipped). */
export function fill(element: HTMLElement, ...children: (Child | Child[])[]): HTMLElement {
  const nodes: (Node | string)[] = [];
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    nodes.push(typeof child === "number" ? String(child) : child);
  }
  element.replaceChildren(...nodes);
  return element;
}

/** A route of this page (hash routing: the server serves one address). */
export function link(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const text = params.toString();
  return `#${path}${text ? `?${text}` : ""}`;
}

export function loading(): HTMLElement {
  return h("p", { class: "carregando", role: "status" }, "Carregando…");
}

export function failure(text: string, retry?: () => void): HTMLElement {
  return h(
    "div",
    { class: "aviso erro", role: "alert" },
    h("p", {}, text),
    retry ? h("button", { type: "button", onclick: retry }, "Tentar de novo") : null,
  );
}
