import { api, get, session } from "./api.ts";
import { fill, h, message } from "./dom.ts";

/*
 * Devices and tokens in the lobby (docs/web.md, docs/judge.md "Tokens"): every token of the
 * account, one per login (labelled with the browser and system it came from) or made for a
 * program, with when it was made and last used and when it expires unused; never the secret.
 * Each can be revoked: a lost phone, a program no longer used. Revoking this browser's own
 * token logs it out. The same as GET /api/tokens and DELETE /api/tokens/{id}.
 */

interface TokenInfo {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  current: boolean;
}

const day = (iso: string | null) =>
  iso ? iso.replace(/:\d\d\.\d{3}Z$/, " UTC").replace("T", " ") : "never";

export async function tokenSettings(onLogout: () => void): Promise<HTMLElement> {
  const card = h("section", { class: "card", "aria-label": "devices and tokens" });
  const out = h("div", { "aria-live": "polite" });
  const render = (tokens: TokenInfo[], note?: string) => {
    const revoke = (t: TokenInfo) => async () => {
      try {
        await api("DELETE", `/api/tokens/${encodeURIComponent(t.id)}`);
        if (t.current) {
          session.clear();
          onLogout();
          return;
        }
        render(await get<TokenInfo[]>("/api/tokens"), `Revoked: ${t.label}.`);
      } catch (err) {
        fill(out, message((err as Error).message, "error"));
      }
    };
    fill(
      card,
      h("h2", {}, "Devices and tokens"),
      h(
        "table",
        { class: "stacked", "aria-label": "your tokens" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "Device or program"),
            h("th", {}, "Made"),
            h("th", {}, "Last used"),
            h("th", {}, "Expires unused"),
            h("th", {}, ""),
          ),
        ),
        h(
          "tbody",
          {},
          tokens.map((t) =>
            h(
              "tr",
              {},
              h("td", {}, t.label, t.current ? " (this browser)" : ""),
              h("td", { "data-label": "Made" }, day(t.createdAt)),
              h("td", { "data-label": "Last used" }, day(t.lastUsedAt)),
              h("td", { "data-label": "Expires unused" }, t.expiresAt ? day(t.expiresAt) : "never"),
              h(
                "td",
                {},
                h(
                  "button",
                  { type: "button", class: "secondary", onclick: () => void revoke(t)() },
                  t.current ? "Log out here" : "Revoke",
                ),
              ),
            ),
          ),
        ),
      ),
      h(
        "p",
        { class: "hint" },
        "A token is made each time you log in, and for each program you give one. Revoke those you no longer use; the secrets are never shown again.",
      ),
      note ? message(note, "info") : null,
      out,
    );
  };
  render(await get<TokenInfo[]>("/api/tokens"));
  return card;
}
