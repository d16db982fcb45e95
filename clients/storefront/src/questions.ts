/**
 * Questions and answers (GET /publics/products/comments: the questions, then their approved
 * replies in one more call) and the form to ask one (POST /publics/products/{id}/comments:
 * the store approves it before it shows).
 */
import { newKey, store, StorefrontError } from "./api.js";
import { failure, h } from "./dom.js";
import { longDate } from "./format.js";

const PER_PAGE = 10;
/** The API's field names, and what to tell the shopper when one is refused. */
const FIELD_HINTS: Record<string, string> = {
  customerName: "Informe seu nome (pelo menos 3 letras).",
  customerEmail: "Informe um e-mail válido.",
  message: "Escreva sua pergunta.",
};

export function questionsSection(productId: number): HTMLElement {
  const list = h("div", { class: "lista-perguntas" });
  let shown = 0;

  const more = async () => {
    try {
      const { data: questions } = await store.comments({
        condition: { productId, parentCommentId: { isNull: true } },
        order: ["-createdAt"],
        limit: PER_PAGE,
        offset: shown,
      });
      const asked = questions.registers.filter((question) => question.totalReplies > 0);
      const { data: replies } =
        asked.length > 0
          ? await store.comments({
              condition: { parentCommentId: { in: asked.map((question) => question.id) } },
              order: ["createdAt"],
              limit: 100,
            })
          : { data: { registers: [] } };
      if (shown === 0 && questions.registers.length === 0) {
        list.replaceChildren(h("p", {}, "Ninguém perguntou ainda. Seja o primeiro!"));
        return;
      }
      shown += questions.registers.length;
      list.querySelector(".mais")?.remove();
      list.append(
        ...questions.registers.map((question) =>
          h(
            "div",
            { class: "pergunta" },
            h("p", {}, h("strong", {}, question.message)),
            h(
              "p",
              { class: "detalhe" },
              `${question.customerName} · ${longDate(question.createdAt)}`,
            ),
            replies.registers
              .filter((reply) => reply.parentCommentId === question.id)
              .map((reply) =>
                h(
                  "blockquote",
                  { class: "resposta" },
                  h("p", {}, reply.message),
                  h(
                    "p",
                    { class: "detalhe" },
                    reply.replyByUser ? `Resposta da loja (${reply.userName})` : reply.customerName,
                  ),
                ),
              ),
          ),
        ),
        shown < questions.pagination.registers
          ? h(
              "button",
              { type: "button", class: "mais", onclick: () => void more() },
              "Ver mais perguntas",
            )
          : "",
      );
    } catch {
      list.replaceChildren(failure("Não foi possível carregar as perguntas."));
    }
  };
  void more();

  return h(
    "section",
    { id: "perguntas", class: "perguntas" },
    h("h2", {}, "Perguntas e respostas"),
    list,
    askForm(productId),
  );
}

function askForm(productId: number): HTMLElement {
  const note = h("p", { class: "aviso-form", role: "status" });
  const field = (name: string, label: string, control: HTMLElement) =>
    h("label", {}, label, control, h("span", { class: "erro-campo", "data-campo": name }));

  const form: HTMLFormElement = h(
    "form",
    {
      class: "perguntar",
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const data = new FormData(form);
        const read = (name: string) => String(data.get(name) ?? "").trim();
        const button = form.querySelector("button");
        form.querySelectorAll(".erro-campo").forEach((hint) => (hint.textContent = ""));
        if (button) button.disabled = true;
        try {
          await store.createComment(
            productId,
            {
              message: read("message"),
              customerName: read("customerName"),
              customerEmail: read("customerEmail"),
            },
            { idempotencyKey: newKey() },
          );
          form.reset();
          note.textContent =
            "Obrigado! Sua pergunta foi enviada e aparece aqui depois de aprovada pela loja.";
        } catch (error) {
          const refused = error instanceof StorefrontError ? Object.keys(error.errors ?? {}) : [];
          for (const name of refused) {
            const hint = form.querySelector(`[data-campo="${name}"]`);
            if (hint) hint.textContent = FIELD_HINTS[name] ?? "Confira este campo.";
          }
          note.textContent =
            refused.length > 0
              ? "Confira os campos destacados."
              : "Não foi possível enviar agora. Tente de novo em instantes.";
        } finally {
          if (button) button.disabled = false;
        }
      },
    },
    h("h3", {}, "Faça uma pergunta"),
    field(
      "customerName",
      "Nome",
      h("input", {
        name: "customerName",
        required: true,
        minlength: 3,
        maxlength: 100,
        autocomplete: "name",
      }),
    ),
    field(
      "customerEmail",
      "E-mail",
      h("input", {
        name: "customerEmail",
        type: "email",
        required: true,
        maxlength: 254,
        autocomplete: "email",
      }),
    ),
    field(
      "message",
      "Pergunta",
      h("textarea", { name: "message", required: true, maxlength: 2000, rows: 3 }),
    ),
    h("button", { type: "submit", class: "botao" }, "Enviar pergunta"),
    note,
  );
  return form;
}
