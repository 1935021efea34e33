import type { Judge } from "../../judge/judge.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { obj, optional, str } from "../schema.ts";
import { name, need, password } from "./shared.ts";

/*
 * The accounts' routes: registration, login (the token's label from the User-Agent), who
 * the token is, and the API tokens (list, issue, revoke).
 */

/**
 * A login token's label: the browser and system it came from (`login: Firefox on Linux`),
 * from the User-Agent, so that the token list tells one device from another.
 */
export function loginLabel(agent: string | undefined): string {
  const a = agent ?? "";
  const browser =
    [
      ["Edge", /Edg\//],
      ["Opera", /OPR\//],
      ["Firefox", /Firefox\//],
      ["Chrome", /Chrome\//],
      ["Safari", /Safari\//],
      ["curl", /^curl\//],
      ["a program", /^(node|undici|python|Go-http|okhttp)/i],
    ].find(([, re]) => (re as RegExp).test(a))?.[0] ?? null;
  const system =
    [
      ["Android", /Android/],
      ["iOS", /iPhone|iPad/],
      ["Windows", /Windows/],
      ["macOS", /Mac OS X|Macintosh/],
      ["Linux", /Linux/],
    ].find(([, re]) => (re as RegExp).test(a))?.[0] ?? null;
  if (!browser && !system) return "login";
  return `login: ${browser ?? "a browser"}${system ? ` on ${system}` : ""}`;
}

export function accountRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "POST",
      path: "/api/users",
      response: R.authAnswer.json,
      tag: "accounts",
      summary: "Create an account; answers with a token",
      auth: "none",
      body: obj({ name, password }),
      successStatus: 201,
      responses: {
        409: "the name is taken",
        429: "too many accounts from your address: wait Retry-After seconds",
      },
      handler: async (c) => judge.accounts.register(c.body.name, c.body.password),
    }),
    route({
      method: "POST",
      path: "/api/login",
      response: R.authAnswer.json,
      tag: "accounts",
      summary: "Log in with name and password; answers with a new token",
      auth: "none",
      body: obj({
        name,
        password: str({ min: 1, max: 200 }),
        device: optional(
          str({
            max: 200,
            description:
              "the login device token an earlier login or registration of this account answered with",
          }),
        ),
        code: optional(
          str({
            max: 40,
            description: "the one-time code mailed to the owner of an account under attack",
          }),
        ),
      }),
      responses: {
        401: "wrong name or password",
        429: "too many logins from your address, or wrong passwords for the account: wait Retry-After seconds",
      },
      handler: async (c) =>
        judge.accounts.login(c.body.name, c.body.password, loginLabel(c.req.headers["user-agent"])),
    }),
    route({
      method: "GET",
      path: "/api/me",
      response: R.meAnswer.json,
      tag: "accounts",
      summary: "Who the token belongs to",
      auth: "required",
      handler: async (c) => ({ user: need(c.user) }),
    }),
    route({
      method: "GET",
      path: "/api/tokens",
      response: R.tokensAnswer.json,
      tag: "accounts",
      summary: "Your API tokens (never the secrets)",
      auth: "required",
      handler: async (c) => judge.accounts.listTokens(need(c.user), c.token),
    }),
    route({
      method: "POST",
      path: "/api/tokens",
      response: R.newTokenAnswer.json,
      tag: "accounts",
      summary: "A new API token, for a program acting for you (shown once)",
      auth: "required",
      body: obj({ label: str({ min: 1, max: 100, example: "my bot" }) }),
      successStatus: 201,
      handler: async (c) => judge.accounts.issueToken(need(c.user).id, c.body.label),
    }),
    route({
      method: "DELETE",
      path: "/api/tokens/{tokenId}",
      response: R.revokedAnswer.json,
      tag: "accounts",
      summary: "Revoke a token",
      auth: "required",
      handler: async (c) => {
        await judge.accounts.revokeToken(need(c.user), c.params.tokenId!);
        return { revoked: c.params.tokenId };
      },
    }),
  ];
}
