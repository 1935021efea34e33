import { get, post, session } from "./api.ts";
import type { GameCtx, Panel } from "./context.ts";
import { fill, h, keepFocus, message, region } from "./dom.ts";
import { type PressItem, type PressText, type PressThread, pressThreads } from "./parts.ts";

/*
 * Press and votes: the press the viewer may read (grey press without its author) as
 * conversations with unread counts, and a form to answer in one or start another, white or
 * grey; the proposals with the viewer's own vote, and a draw to propose while none is open;
 * for the GM, refusing a proposal with a reason.
 */

/** Per viewer and game, the last message read in each thread (kept in this browser). */
function readMarks(game: string) {
  const key = `entente.read.${session.user ?? "-"}.${game}`;
  let marks: Record<string, number> = {};
  try {
    marks = JSON.parse(localStorage.getItem(key) ?? "{}") as Record<string, number>;
  } catch {
    // a damaged entry: everything unread again
  }
  return {
    marks: () => marks,
    read(thread: PressThread) {
      const last = thread.items[thread.items.length - 1]?.id ?? 0;
      if ((marks[thread.key] ?? 0) >= last) return;
      marks = { ...marks, [thread.key]: last };
      localStorage.setItem(key, JSON.stringify(marks));
    },
  };
}

/**
 * Press as conversations (parts.ts `pressThreads`): the public thread, one per correspondent
 * or group, the anonymous grey press; each with its unread count. The thread chosen is shown
 * and read; a reply goes to its people (white or grey). "New conversation" picks the powers.
 */
export function pressPanel(ctx: GameCtx, powers: readonly string[]): Panel {
  const el = h("div", {});
  const name = ctx.name;
  const seen = readMarks(ctx.id);
  const mine = () => ctx.view().you?.powers ?? [];
  let threads: PressThread[] = [];
  let chosen = "all";
  let picking = false;
  const list = h("div", { class: "threads", role: "group", "aria-label": "conversations" });
  const shown = h("ol", { class: "press", "aria-live": "polite" });
  const body = h("textarea", { rows: 3, "aria-label": "message", maxlength: 20000 });
  const kind = h(
    "select",
    { "aria-label": "kind" },
    h("option", { value: "white" }, "signed (white)"),
    h("option", { value: "grey" }, "anonymous (grey)"),
  );
  const to = h("fieldset", { class: "pick-powers" });
  const out = h("div", { "aria-live": "polite" });
  const heading = h("h3", {});
  const noReply = h("p", { class: "hint" }, "Anonymous press cannot be answered.");
  const label = (t: Pick<PressThread, "key" | "to">) =>
    t.key === "all"
      ? "Everybody (public)"
      : t.key === "anonymous"
        ? "Anonymous (grey press to you)"
        : t.key
            .split(",")
            .map((p) => (p === "gm" ? "Game master" : name(p)))
            .join(", ");
  const current = () => threads.find((t) => t.key === chosen);
  // The Press tab's own count: every unread message but the thread being read.
  const badge = h("span", { class: "unread", hidden: true });
  const count = (reading: string | null) => {
    const n = threads.reduce((a, t) => a + (t.key === reading ? 0 : t.unread), 0);
    badge.hidden = n === 0;
    fill(badge, String(n));
    badge.setAttribute("aria-label", `${n} unread`);
  };
  // The viewer's own press held for the GM's review (the option press.review, seed 002
  // X(1)): awaiting the GM, or refused with the GM's reason; once approved it is in a thread.
  const held = region("ul", { class: "held-press", "aria-label": "your press held for the GM" });
  // Only the latest load is applied: two loads at once (the send's and a live event's) may be
  // answered out of order, and the older would put back a list without the newest message.
  // A superseded load answers false and its caller draws nothing: drawing the old list would
  // lose a thread just opened (the send's chosen thread not found sent the view to "all").
  let loads = 0;
  const load = async (): Promise<boolean> => {
    const seq = ++loads;
    const items = await get<PressItem[]>(`${ctx.base}/press`);
    const own =
      ctx.view().you?.role === "player"
        ? (await get<HeldItem[]>(`${ctx.base}/press/held`)).filter((m) => m.status !== "approved")
        : [];
    if (seq !== loads) return false;
    threads = pressThreads(items, mine(), seen.marks());
    held.update(JSON.stringify(own), () =>
      own.map((m) =>
        h(
          "li",
          { class: `press-item held ${m.status}` },
          h(
            "div",
            { class: "press-head" },
            `${m.phase} · you`,
            m.to === "all" ? " → everybody" : ` → ${m.to.map(name).join(", ")}`,
            h(
              "span",
              { class: "badge" },
              m.status === "held" ? "awaiting the GM" : "refused by the GM",
            ),
          ),
          h("div", { class: "press-body" }, m.body),
          m.reason ? h("div", { class: "hint" }, `The GM's reason: ${m.reason}`) : null,
        ),
      ),
    );
    return true;
  };
  const showThread = () => {
    const t = current();
    fill(
      shown,
      !t || t.items.length === 0
        ? h("li", { class: "hint" }, picking ? "" : "No press yet.")
        : t.items.map((m) =>
            h(
              "li",
              { class: `press-item ${m.kind}${m.yours ? " yours" : ""}` },
              h(
                "div",
                { class: "press-head" },
                `${m.phase} · ${m.yours ? "you" : m.fromName}`,
                m.to === "all" ? "" : ` → ${m.to.map(name).join(", ")}`,
                m.kind === "grey"
                  ? h(
                      "span",
                      { class: "badge grey" },
                      m.yours ? "grey: sent anonymously" : "grey: anonymous",
                    )
                  : null,
              ),
              h("div", { class: "press-body" }, m.body),
            ),
          ),
    );
    if (t && !picking) seen.read(t);
  };
  const showList = () =>
    keepFocus(list, () =>
      fill(
        list,
        threads.map((t) => {
          const unread = t.key === chosen && !picking ? 0 : t.unread;
          return h(
            "button",
            {
              type: "button",
              class: "thread secondary",
              "data-thread": t.key,
              "data-focus": `thread:${t.key}`,
              "aria-pressed": String(t.key === chosen && !picking),
              onclick: () => {
                chosen = t.key;
                picking = false;
                void panel.show();
              },
            },
            label(t),
            unread
              ? h("span", { class: "unread", "aria-label": `${unread} unread` }, String(unread))
              : null,
          );
        }),
        ctx.view().you?.role === "player"
          ? h(
              "button",
              {
                type: "button",
                class: "thread secondary",
                "data-focus": "thread:+",
                "aria-pressed": String(picking),
                onclick: () => {
                  picking = true;
                  void panel.show();
                },
              },
              "+ New conversation",
            )
          : null,
      ),
    );
  const recipients = (): "all" | string[] | null => {
    if (picking)
      return [...to.querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.value);
    const t = current();
    return t ? t.to : "all";
  };
  const form = h(
    "form",
    { class: "press-form", "aria-label": "send press" },
    to,
    body,
    h("div", { class: "row" }, kind, h("button", { type: "submit" }, "Send")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = recipients();
    if (!r || r.length === 0) {
      fill(out, message("Choose at least one power to write to.", "error"));
      return;
    }
    try {
      await post(`${ctx.base}/press`, { to: r, body: body.value, kind: kind.value });
      body.value = "";
      fill(out);
      if (picking) {
        picking = false;
        chosen =
          r === "all"
            ? "all"
            : r
                .filter((p) => !mine().includes(p))
                .sort()
                .join(",");
      }
      await panel.show();
    } catch (err) {
      fill(out, message((err as Error).message, "error"));
    }
  });
  /** Whom the form writes to: the thread's people, or the powers to tick for a new one. */
  const showTo = () => {
    const t = current();
    const key = picking ? "+" : `${chosen}`;
    // Drawn again only when the thread changes, so ticks survive a live update.
    if (to.dataset.for === key) return;
    to.dataset.for = key;
    to.classList.toggle("to-line", !picking);
    fill(
      to,
      picking
        ? [
            h("legend", {}, "To"),
            powers
              .filter((p) => !mine().includes(p))
              .map((p) =>
                h("label", {}, h("input", { type: "checkbox", value: p }), ` ${name(p)}`),
              ),
          ]
        : h("legend", {}, `To: ${t ? label(t) : "everybody"}`),
    );
  };
  const panel: Panel = {
    title: "Press",
    el,
    badge: {
      el: badge,
      async refresh() {
        if (await load()) count(null);
      },
    },
    async show() {
      if (!(await load())) return;
      if (!current() && !picking) chosen = "all";
      const player = ctx.view().you?.role === "player";
      const t = current();
      showTo();
      showList();
      showThread();
      count(picking ? null : chosen);
      const canReply =
        player && (picking || (t !== undefined && (t.to === "all" || t.to.length > 0)));
      // The parts are filled in place: a message arriving while one is written (a live
      // update shows the panel again) leaves the form, its text and the focus alone.
      fill(heading, picking ? "New conversation" : t ? label(t) : "Press");
      form.hidden = !canReply;
      noReply.hidden = canReply || !player;
      if (el.childElementCount === 0) fill(el, list, heading, shown, held.el, form, noReply);
    },
  };
  return panel;
}

/** A message held for the GM's review (GET /api/games/:id/press/held). */
export interface HeldItem extends PressText {
  n: number;
  status: "held" | "approved" | "refused";
  reason?: string;
}

interface Proposal {
  id: number;
  kind: string;
  text: string | null;
  powers: string[] | null;
  status: string;
  counts: { for: number; against: number; abstain: number } | null;
  yourVote?: string | null;
  yours?: boolean;
  /** A refused proposal: the GM's reason, for its proposer and the GM. */
  reason?: string;
}

/** Proposals to end the game (the page proposes draws); one is open at a time (votes.ts). */
const ending = (p: Proposal) => p.kind === "draw" || p.kind === "concede";

/**
 * The proposals: each with its outcome, and while open the viewer's own vote (shown, and
 * pressed among the vote buttons). A draw is offered only while no proposal to end the game
 * is open: the judge refuses a second one.
 */
export function votesPanel(ctx: GameCtx): Panel {
  const name = ctx.name;
  const el = h("div", {});
  const out = h("div", { "aria-live": "polite" });
  const act = async (f: () => Promise<unknown>, done: string) => {
    const pressed = document.activeElement?.getAttribute("data-focus");
    try {
      await f();
      await panel.show();
      fill(out, message(done, "ok"));
      // Drawn again: the focus goes back to the button pressed (a keyboard user stays put).
      if (pressed) el.querySelector<HTMLElement>(`[data-focus="${pressed}"]`)?.focus();
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
                void act(
                  () =>
                    post(`${ctx.base}/gm/refuse-proposal`, { proposal: id, reason: reason.value }),
                  `Proposal ${id} is refused: nobody votes on it; its proposer reads your reason.`,
                ),
            },
            "Refuse (no vote)",
          ),
        );
      };
      const open = props.find((p) => p.status === "open" && ending(p));
      keepFocus(el, () =>
        fill(
          el,
          props.length === 0 ? h("p", {}, "No proposals.") : null,
          h(
            "ul",
            { class: "votes" },
            props.map((p) =>
              h(
                "li",
                { "data-proposal": String(p.id), "data-status": p.status },
                h("strong", {}, p.text ?? p.kind),
                p.powers && p.kind !== "draw" ? ` (${p.powers.map(name).join(", ")})` : "",
                h("span", { class: `badge ${p.status}` }, p.status),
                p.reason ? h("small", {}, ` ${p.reason}`) : null,
                p.yours ? h("small", {}, " proposed by you") : null,
                p.counts
                  ? h(
                      "div",
                      { class: "hint" },
                      `for ${p.counts.for} · against ${p.counts.against} (uncast votes included) · abstained ${p.counts.abstain}`,
                    )
                  : null,
                p.status === "open" && p.yourVote !== undefined
                  ? h(
                      "div",
                      { class: "row wrap your-vote" },
                      h(
                        "span",
                        {},
                        "Your vote: ",
                        h("strong", {}, p.yourVote ?? "not cast (counts as no)"),
                      ),
                      (["yes", "no", "abstain"] as const).map((v) =>
                        h(
                          "button",
                          {
                            type: "button",
                            class: `chip${p.yourVote === v ? "" : " secondary"}`,
                            "aria-pressed": String(p.yourVote === v),
                            "data-focus": `${p.id}-${v}`,
                            onclick: () =>
                              void act(
                                () => post(`${ctx.base}/votes/${p.id}`, { vote: v }),
                                `Your vote is now ${v}; you may change it until the deadline.`,
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
          !player
            ? null
            : open
              ? h(
                  "p",
                  { class: "hint" },
                  "A proposal to end the game is open: a new one may be made once it is decided with this phase's orders.",
                )
              : h(
                  "div",
                  { class: "row" },
                  h(
                    "button",
                    {
                      type: "button",
                      class: "secondary",
                      onclick: () =>
                        void act(
                          () => post(`${ctx.base}/votes`, { kind: "draw" }),
                          "Proposed: a draw of all survivors. Proposing is your yes; you may change it until the deadline.",
                        ),
                    },
                    "Propose a draw of all survivors",
                  ),
                ),
          out,
        ),
      );
    },
  };
  return panel;
}
