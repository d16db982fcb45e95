/**
 * Compiled, never run (`tsc --noEmit`): calls written as the contract writes them type-check
 * against the generated types, through openapi-fetch directly and through the client; the
 * `@ts-expect-error` lines prove that the types still refuse what the service refuses.
 */
import createClient from "openapi-fetch";
import { createStorefrontClient, serializeQuery, type Result, type Schemas } from "../src/client.js";
import type { paths } from "../src/schema.js";

const raw = createClient<paths>({ baseUrl: "http://127.0.0.1:8000", querySerializer: serializeQuery });
const client = createStorefrontClient({ baseUrl: "http://127.0.0.1:8000" });

export async function contractCalls(): Promise<void> {
  // Operators of `condition`: a bare value (eq) or an object of operators, per field.
  await raw.GET("/review/product", {
    params: { query: { condition: { score: { gte: 4 }, productId: 14 }, limit: 10, offset: 0 } },
  });
  await raw.GET("/publics/products/comments", {
    params: { query: { condition: { productId: { in: [14, 15] }, parentCommentId: { isNull: true } } } },
  });
  await raw.GET("/review/product", {
    // @ts-expect-error -- no such operator
    params: { query: { condition: { score: { between: 4 } } } },
  });
  await raw.GET("/review/product", {
    // @ts-expect-error -- contains is for text fields only
    params: { query: { condition: { score: { contains: 4 } } } },
  });

  // The quote's items: an array of objects.
  await raw.GET("/publics/products/quote", {
    params: {
      query: { targetZipCode: "01310-100", targetCountryCode: "BRA", items: [{ productId: 14, quantity: 2 }] },
    },
  });
  // @ts-expect-error -- items are objects, not a string
  await client.quote({ targetZipCode: "01310-100", targetCountryCode: "BRA", items: "[]" });

  // An interest without phone nor message (both optional in the contract).
  const interest: Schemas["InterestCreateRequest"] = {
    productId: 14,
    origin: "notify-me",
    name: "Ana Souza",
    email: "ana@example.com",
  };
  await raw.POST("/publics/products/interests", { body: interest });
  // A review without comment, recommended or masked is a valid body too.
  const review: Schemas["ProductReviewWriteRequest"] = { productId: 14, score: 5 };
  void review;

  // The banner path as the contract writes it, under /api/v3.
  const banners = await raw.GET("/api/v3/publics/template/banners", {
    params: { query: { codes: ["home-main"] } },
  });
  const groups: Schemas["BannerGroup"][] | undefined = banners.data?.data;
  void groups;

  // The client: one result type whatever the envelope.
  const flags: Result<Schemas["CardFlags"]> = await client.cardFlags();
  const tree = await client.categoryTree();
  const firstCategory: string | undefined = tree.data[0]?.name;
  const page = await client.productReviews({ condition: { score: { gte: 4 } }, order: ["-createdAt"] });
  const total: number = page.data.pagination.registers;
  const comments = await client.comments({ condition: { productId: 14 } });
  const firstMessage: string | undefined = comments.data.registers[0]?.message;
  void [flags, firstCategory, total, firstMessage];
}
