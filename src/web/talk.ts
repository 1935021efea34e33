import { get, post } from "./api.ts";
import { fill, h, message } from "./dom.ts";
import type { GameCtx, Panel } from "./game.ts";

/*
 * Press and votes: the press the viewer may read (grey press without its author) and a form
 * to send white or grey press to everybody or a power; the proposals with the viewer's vote,
 * and a draw to propose; for the GM, refusing a proposal with a reason.
 */

interface PressItem {
  id: number;
  phase: string;
  kind: string;
  fromName: string;
  to: "all" | string[];
  body: string;
  at: string;
}

export function pressPanel(ctx: GameCtx, powers: readonly string[]): Panel {
  const el = h("div", {});
  const list = h("ol", { class: "press", "aria-live": "polite" });
  const body = h("textarea", { rows: 3, "aria-label": "message", maxlength: 20000 });
  const kind = h(
    "select",
    { "aria-label": "kind" },
    h("option", { value: "white" }, "signed (white)"),
    h("option", { value: "grey" }, "anonymous (grey)"),
  );
  const to = h(
    "select",
    { "aria-label": "to" },
    h("option", { value: "all" }, "everybody"),
    powers.map((p) => h("option", { value: p }, ctx.name(p))),
  );
  const out = h("div", { "aria-live": "polite" });
  const name = ctx.name;
  const load = async () => {
    const items = await get<PressItem[]>(`${ctx.base}/press`);
    fill(
      list,
      items.length === 0
        ? h("li", { class: "hint" }, "No press yet.")
        : items.map((m) =>
            h(
              "li",
              { class: `press-item ${m.kind}` },
              h(
                "div",
                { class: "press-head" },
                `${m.phase} · ${m.fromName} → ${m.to === "all" ? "all" : m.to.map(name).join(", ")} (${m.kind})`,
              ),
              h("div", { class: "press-body" }, m.body),
            ),
          ),
    );
  };
  const form = h(
    "form",
    { class: "press-form", "aria-label": "send press" },
    body,
    h("div", { class: "row" }, to, kind, h("button", { type: "submit" }, "Send")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await post(`${ctx.base}/press`, {
        to: to.value === "all" ? "all" : [to.value],
        body: body.value,
        kind: kind.value,
      });
      body.value = "";
      fill(out);
      await load();
    } catch (err) {
      fill(out, message((err as Error).message, "error"));
    }
  });
  return {
    title: "Press",
    el,
    async show() {
      fill(el, list, ctx.view().you?.role === "player" ? form : null);
      await load();
    },
  };
}

interface Proposal {
  id: number;
  kind: string;
  text: string | null;
  powers: string[] | null;
  status: string;
  counts: unknown;
  yourVote?: string | null;
  /** A refused proposal: the GM's reason, for its proposer and the GM. */
  reason?: string;
}

export function votesPanel(ctx: GameCtx): Panel {
  const name = ctx.name;
  const el = h("div", {});
  const out = h("div", { "aria-live": "polite" });
  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      fill(out);
      await panel.show();
    } catch (e) {
      fill(out, message((e as Error).message, "error"));
    }
  };
  const panel: Panel = {
    title: "Votes",
    el,
    async show() {
      const props = await get<Proposal[]>(`${ctx.base}/votes`);
      const player = ctx.view().you?.role === "player";
      const gm = ctx.view().you?.role === "gm";
      /** The GM's refusal of a repetitive or humorous proposal (seed 002 IX(5)), with a reason. */
      const refusal = (id: number) => {
        const reason = h("input", {
          type: "text",
          "aria-label": `reason for refusing proposal ${id}`,
          placeholder: "reason (the proposer reads it)",
          maxlength: 2000,
        });
        return h(
          "span",
          { class: "row" },
          reason,
          h(
            "button",
            {
              type: "button",
              class: "chip",
              onclick: () =>
                void act(() =>
                  post(`${ctx.base}/gm/refuse-proposal`, { proposal: id, reason: reason.value }),
                ),
            },
            "Refuse (no vote)",
          ),
        );
      };
      fill(
        el,
        props.length === 0 ? h("p", {}, "No proposals.") : null,
        h(
          "ul",
          { class: "votes" },
          props.map((p) =>
            h(
              "li",
              {},
              h("strong", {}, p.kind),
              p.powers ? ` (${p.powers.map(name).join(", ")})` : "",
              p.text ? ` “${p.text}”` : "",
              ` · ${p.status}`,
              p.reason ? `: ${p.reason}` : "",
              p.counts ? ` · ${JSON.stringify(p.counts)}` : "",
              p.status === "open" && player
                ? h(
                    "span",
                    { class: "row" },
                    ` your vote: ${p.yourVote ?? "none"} `,
                    (["yes", "no", "abstain"] as const).map((v) =>
                      h(
                        "button",
                        {
                          type: "button",
                          class: "chip",
                          onclick: () =>
                            void act(() =>
                              post(`${ctx.base}/votes/${p.id}`, {
                                vote: v,
                              }),
                            ),
                        },
                        v,
                      ),
                    ),
                  )
                : null,
              p.status === "open" && gm ? refusal(p.id) : null,
            ),
          ),
        ),
        player
          ? h(
              "div",
              { class: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "secondary",
                  onclick: () => void act(() => post(`${ctx.base}/votes`, { kind: "draw" })),
                },
                "Propose a draw of all survivors",
              ),
            )
          : null,
        out,
      );
    },
  };
  return panel;
}
