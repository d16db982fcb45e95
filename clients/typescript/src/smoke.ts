/**
 * Calls every operation of the contract (all thirteen) through the client against a running
 * demo store (`make run`), checks what each answers, and exits 1 on the first failure.
 *
 *   npm run smoke -- --base http://127.0.0.1:8000
 */
import { randomUUID } from "node:crypto";
import { argv, exit } from "node:process";

import { createStorefrontClient, StorefrontError } from "./client.js";

function option(name: string, fallback: string): string {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] ? (argv[at + 1] as string) : fallback;
}

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${what}`);
}

const base = option("base", "http://127.0.0.1:8000");
const client = createStorefrontClient({ baseUrl: base });
const PRODUCT = 14; // DEMO-0014 of the demo catalogue
const steps: [string, () => Promise<void>][] = [];
const step = (name: string, run: () => Promise<void>) => steps.push([name, run]);

step("GET /publics/payments/card-flags (and a 304)", async () => {
  const flags = await client.cardFlags();
  check(typeof flags.data.visa === "string" && flags.data.elo, "the brands' patterns");
  check(flags.etag, "an ETag");
  const again = await fetch(`${base}/publics/payments/card-flags`, {
    headers: { "If-None-Match": flags.etag },
  });
  check(again.status === 304, `304 on If-None-Match (got ${again.status})`);
});

step("POST /publics/payments/conditions", async () => {
  const conditions = await client.paymentConditions({
    items: [{ reference: "DEMO-0014", value: 199.9 }],
  });
  const [first] = conditions.data;
  check(first?.reference === "DEMO-0014" && first.installments.length > 0, "installments");
});

let categoryId = 0;
step("GET /publics/products/categories/tree", async () => {
  const tree = await client.categoryTree();
  check(tree.data.length > 0 && tree.data[0]?.name, "a category");
  categoryId = tree.data[0]?.id ?? 0;
});

step("GET /publics/products/categories/{categoryId}/tree", async () => {
  const subtree = await client.categorySubtree(categoryId);
  check(subtree.data.current.id === categoryId, "the category itself");
  check(Array.isArray(subtree.data.children) && Array.isArray(subtree.data.sisters), "its tree");
});

step("GET /api/v3/publics/template/banners", async () => {
  const groups = await client.banners(["home-main"]);
  check(groups.data[0]?.code === "home-main", "the home-main group");
  check(groups.data[0]?.banners.every((banner) => banner.active), "active banners only");
});

step("POST /publics/products/interests (no phone, then replayed)", async () => {
  const key = randomUUID();
  const email = `ana.${key.slice(0, 8)}@example.com`; // a new interest on every run
  const body = { productId: PRODUCT, origin: "notify-me" as const, name: "Ana Souza", email };
  const created = await client.createInterest(body, { idempotencyKey: key });
  check(created.status === 201 && created.data.productId === PRODUCT, "the interest");
  check(created.data.simpleProduct.id === PRODUCT, "its product");
  const replay = await client.createInterest(body, { idempotencyKey: key });
  check(replay.replayed && replay.data.id === created.data.id, "the same interest, replayed");
});

step("GET /shipping/zipcode/consult/{countryCode}/{zipCode} (and a 404)", async () => {
  const address = await client.zipcode("BRA", "01310-100");
  check(address.data.city && address.data.countryCodeAlpha3 === "BRA", "the address");
  try {
    await client.zipcode("BRA", "00000-000");
    check(false, "a 404 for an unknown postal code");
  } catch (error) {
    check(error instanceof StorefrontError, `a StorefrontError (got ${String(error)})`);
    check(error.status === 404 && error.errorCode === "SERVICE_STORE_ZIPCODE_NOT_FOUND", "its code");
  }
});

step("GET /publics/products/quote (items as an array)", async () => {
  const quote = await client.quote({
    targetZipCode: "01310-100",
    targetCountryCode: "BRA",
    items: [{ productId: PRODUCT, quantity: 2 }],
  });
  const [group] = quote.data.quoteGroups;
  check(group && group.items[0]?.productId === PRODUCT && group.items[0].quantity === 2, "the item");
  check(group.shippingOptions.length > 0, "shipping options");
});

step("GET /cart/upsell/{locationId}", async () => {
  const offer = await client.upsell("cart", { variationMap: { "1": 151 } });
  check(offer.data.displayTitle && offer.data.upsellProduct.id, "the offer");
});

step("GET /review/product (condition with an operator)", async () => {
  const page = await client.productReviews({ condition: { score: { gte: 4 } }, limit: 20 });
  const { registers, pagination } = page.data;
  check(registers.length > 0 && registers.every((review) => review.score >= 4), "scores >= 4");
  check(pagination.limit === 20, "the page's limit");
  const listed = await client.productReviews({ condition: { score: { in: [4, 5] } }, fields: ["id", "score"] });
  check(listed.data.registers.length > 0, "reviews scored 4 or 5");
  check(listed.data.registers.every((review) => [4, 5].includes(review.score)), "in [4, 5]");
  check(listed.data.registers.every((review) => Object.keys(review).length === 2), "2 fields");
  try {
    await client.raw.GET("/review/product", {
      params: { query: { condition: { score: { gte: "x" as unknown as number } } } },
    }).then(({ response, error }) => {
      if (!response.ok) throw error;
    });
    check(false, "a 422 for a bad value");
  } catch (error) {
    check((error as { data?: { errorCode?: string } }).data?.errorCode === "VALIDATION_ERROR", "422");
  }
});

step("GET /review/sales-channel", async () => {
  const page = await client.salesChannelReviews({ order: ["-score"], limit: 5 });
  check(page.data.registers.length > 0 && page.data.pagination.registers > 0, "store reviews");
});

let commentId = 0;
step("GET /publics/products/comments", async () => {
  const page = await client.comments({ condition: { productId: PRODUCT, parentCommentId: { isNull: true } } });
  check(page.data.registers.every((comment) => comment.productId === PRODUCT), "the product's");
  check(page.data.registers.every((comment) => comment.parentCommentId === null), "no replies");
  commentId = page.data.registers[0]?.id ?? 0;
});

step("POST /publics/products/{productId}/comments", async () => {
  const created = await client.createComment(
    PRODUCT,
    { message: "Serve no tamanho M?", customerName: "Ana Souza", customerEmail: "ana@example.com" },
    { idempotencyKey: randomUUID() },
  );
  check(created.status === 201 && created.data.productId === PRODUCT, "the comment");
  check(created.data.message === "Serve no tamanho M?", "its message");
  if (commentId) {
    const reply = await client.createComment(PRODUCT, {
      message: "Obrigada!",
      parentCommentId: commentId,
      customerName: "Ana Souza",
      customerEmail: "ana@example.com",
    });
    check(reply.data.parentCommentId === commentId, "a reply");
  }
});

let failed = 0;
for (const [name, run] of steps) {
  try {
    await run();
    console.log(`ok   ${name}`);
  } catch (error) {
    failed += 1;
    const detail = error instanceof StorefrontError ? `${error.status} ${error.errorCode}: ${error.message}` : String(error);
    console.log(`FAIL ${name}: ${detail}`);
  }
}
console.log(`${steps.length - failed} of ${steps.length} passed against ${base}`);
exit(failed ? 1 : 0);
