/*
 * The judge's public address (docs/email.md, "Settings": ENTENTE_PUBLIC_URL or `serve
 * --public-url`): where people reach its web page. When it is known, mails carry links to a
 * game's page and to an invitation; when it is not, they carry none (never a broken one).
 */

/** The public address as configured: an http(s) URL without a trailing slash; null: none. */
export function readPublicUrl(raw: string | undefined | null): string | null {
  const v = raw?.trim() ?? "";
  if (v === "") return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error(
      `ENTENTE_PUBLIC_URL (--public-url) must be the judge's web address, like https://judge.example.org, not "${v}"`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(
      `ENTENTE_PUBLIC_URL (--public-url) must start with https:// or http://, not "${v}"`,
    );
  if (url.search !== "" || url.hash !== "")
    throw new Error(`ENTENTE_PUBLIC_URL (--public-url) takes no query or fragment: "${v}"`);
  return url.href.replace(/\/+$/, "");
}

/** The web page of a game, or null without a public address. */
export function gameLink(publicUrl: string | null, gameId: string): string | null {
  return publicUrl ? `${publicUrl}/game/${encodeURIComponent(gameId)}` : null;
}

/** The web page that accepts an invitation, or null without a public address. */
export function inviteLink(publicUrl: string | null, code: string): string | null {
  return publicUrl ? `${publicUrl}/join/${encodeURIComponent(code)}` : null;
}
