/**
 * The store's API through the typed client of clients/typescript (openapi-fetch over the
 * types generated from /api/schema/). The page is served by the service itself, so the API
 * is at the page's own origin; a storefront on another host puts the API's address here
 * (and the API lists that host in CORS_ALLOWED_ORIGINS: docs/api.md).
 */
import {
  createStorefrontClient,
  StorefrontError,
  type Schemas,
} from "../../typescript/src/client.js";

export const store = createStorefrontClient({ baseUrl: window.location.origin });
export { StorefrontError };

export type CategoryNode = Schemas["FullTreeNode"];
export type ListedProduct = Schemas["ListedProduct"];
export type Facets = Schemas["Facets"];
export type Product = Schemas["FullProduct"];
export type Price = Schemas["Price"];
export type Media = Schemas["Media"];
export type Installment = Schemas["Installment"];

/** A fresh Idempotency-Key for one write (crypto.randomUUID needs https or localhost). */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
