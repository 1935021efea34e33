import { get, post } from "./api.ts";
import { fill, h, message } from "./dom.ts";

/*
 * Mail settings in the lobby (docs/web.md, docs/email.md): the address the judge mails (and
 * order mail comes from), and whether the judge's own mail (results, reports, reminders,
 * notices) goes to it: for the whole account, and game by game. The same choices are
 * POST /api/me/mail and POST /api/me/notices; every such mail says how to stop it. A hint
 * says what the choice does not stop: the mail about one's own seat or duties as a GM.
 */

interface Notices {
  address: string | null;
  notices: boolean;
  games: { gameId: string; name: string; label: string | null; role: string; notices: boolean }[];
}

export async function mailSettings(): Promise<HTMLElement> {
  const card = h("section", { class: "card", "aria-label": "mail settings" });
  const out = h("div", { "aria-live": "polite" });
  const render = (n: Notices, note?: string) => {
    const address = h("input", {
      name: "address",
      type: "email",
      autocomplete: "email",
      value: n.address ?? "",
      placeholder: "you@example.org",
    });
    const save = async (e: Event) => {
      e.preventDefault();
      try {
        const r = await post<{ address: string; secret: string }>("/api/me/mail", {
          address: address.value.trim(),
        });
        render(
          await get<Notices>("/api/me/notices"),
          `Saved: ${r.address}. Your secret for order mail: ${r.secret}`,
        );
      } catch (err) {
        fill(out, message((err as Error).message, "error"));
      }
    };
    const toggle = (input: HTMLInputElement, game?: string) => async () => {
      try {
        const body = game ? { notices: input.checked, game } : { notices: input.checked };
        render(await post<Notices>("/api/me/notices", body), "Saved.");
      } catch (err) {
        input.checked = !input.checked;
        fill(out, message((err as Error).message, "error"));
      }
    };
    const all = h("input", {
      type: "checkbox",
      name: "notices",
      checked: n.notices,
      disabled: n.address === null,
      "aria-describedby": "notices-hint",
    });
    all.addEventListener("change", toggle(all));
    const form = h(
      "form",
      {},
      h("label", { class: "field" }, h("span", {}, "Mail address"), address),
      h("button", { type: "submit" }, "Save address"),
    );
    form.addEventListener("submit", (e) => void save(e));
    fill(
      card,
      h("h2", {}, "Mail"),
      form,
      h(
        "label",
        {},
        all,
        " Mail me results, reports and deadline reminders",
        n.address === null ? " (give an address first)" : "",
      ),
      n.games.length > 0 && n.address !== null && n.notices
        ? h(
            "ul",
            { class: "plain", "aria-label": "mail per game" },
            n.games.map((g) => {
              const box = h("input", {
                type: "checkbox",
                name: `notices-${g.gameId}`,
                checked: g.notices,
                "aria-describedby": "notices-hint",
              });
              box.addEventListener("change", toggle(box, g.gameId));
              return h(
                "li",
                {},
                h("label", {}, box, ` ${g.label ? `${g.label}: ` : ""}${g.name} (${g.role})`),
              );
            }),
          )
        : null,
      // What the boxes do not stop (docs/email.md; `Reach` "duty" in src/mail/notify.ts).
      h(
        "p",
        { class: "hint", id: "notices-hint" },
        "With mail off, for every game or for one, you are still mailed what is about your own seat (missed orders, the seat taken from you) and, as a game's GM, missed orders and seats to replace; and your own mails are still answered.",
      ),
      note ? message(note, "info") : null,
      out,
    );
  };
  render(await get<Notices>("/api/me/notices"));
  return card;
}
