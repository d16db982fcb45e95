/** The category menu (GET /publics/products/categories/tree, read once per page load). */
import { store, type CategoryNode } from "./api.js";
import { h, link } from "./dom.js";

let tree: Promise<CategoryNode[]> | undefined;

export function categoryTree(): Promise<CategoryNode[]> {
  tree ??= store.categoryTree().then((answer) => answer.data);
  return tree;
}

/** The category and its ancestors, root first; empty when the tree has no such id. */
export function categoryPath(nodes: CategoryNode[], id: number): CategoryNode[] {
  for (const node of nodes) {
    if (node.id === id) return [node];
    const below = categoryPath(node.children, id);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}

function branch(nodes: CategoryNode[], level: number): HTMLElement {
  return h(
    "ul",
    { class: `nivel-${level}` },
    nodes.map((node) =>
      h(
        "li",
        {},
        h("a", { href: link(`/categoria/${node.id}`) }, node.name),
        node.children.length > 0 ? branch(node.children, level + 1) : null,
      ),
    ),
  );
}

/** Fills `nav`: a list under "Categorias" that opens on a phone, always open when wide. */
export async function renderMenu(nav: HTMLElement): Promise<void> {
  const nodes = await categoryTree();
  const wide = window.matchMedia("(min-width: 900px)");
  const menu = h(
    "details",
    { class: "menu", open: wide.matches },
    h("summary", {}, "Categorias"),
    branch(nodes, 1),
  );
  wide.addEventListener("change", () => (menu.open = wide.matches));
  // Going to another page closes the menu (on a phone) and its drop-down (when wide: the
  // link followed keeps the focus, and the focus keeps the drop-down open).
  window.addEventListener("hashchange", () => {
    menu.open = wide.matches;
    if (document.activeElement instanceof HTMLElement && menu.contains(document.activeElement)) {
      document.activeElement.blur();
    }
  });
  nav.replaceChildren(menu);
}
