import type { Judge } from "../../judge/judge.ts";
import {
  mailGame,
  mailIdentity,
  noticeSettings,
  outbox,
  setMailAddress,
  setNotices,
} from "../../judge/mail.ts";
import { oneClickUnsubscribe } from "../../judge/unsubscribe.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { bool, obj, oneOf, optional, str } from "../schema.ts";
import { afterParam, need } from "./shared.ts";

/*
 * Play by email's routes (docs/email.md): your mail address and notices, the one-click
 * unsubscribe, a game's mail settings and its outbox.
 */

export function mailRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/me/mail",
      response: R.mailIdentityAnswer.json,
      tag: "mail",
      summary: "Your mail address and secret (the line to put in order mails)",
      auth: "required",
      responses: { 404: "no address set yet" },
      handler: async (c) => mailIdentity(judge, need(c.user)),
    }),
    route({
      method: "POST",
      path: "/api/me/mail",
      response: R.mailIdentityAnswer.json,
      tag: "mail",
      summary: "Set the address you send order mail from; answers with your secret",
      description:
        "Order mails must come from this address and carry the line 'Secret: <secret>' (seed 002 X(6)). The secret is made once; newSecret: true makes a new one.",
      auth: "required",
      body: obj({
        address: str({ min: 3, max: 254, example: "alice@example.org" }),
        newSecret: optional(bool("make a new secret (the old one stops working)")),
      }),
      handler: async (c) => setMailAddress(judge, need(c.user), c.body),
    }),
    route({
      method: "GET",
      path: "/api/me/notices",
      response: R.noticesAnswer.json,
      tag: "mail",
      summary: "Whether the judge mails you results, reports and reminders, for each of your games",
      auth: "required",
      handler: async (c) => noticeSettings(judge, need(c.user)),
    }),
    route({
      method: "POST",
      path: "/api/me/notices",
      response: R.noticesAnswer.json,
      tag: "mail",
      summary: "Opt out of (or back into) the judge's mail: for one game, or for every game",
      description:
        "notices false stops the judge's own mail (start, results and reports, reminders, press, votes, the GM's notices) to your address: for the game named by game (its id or label), or without game for your whole account. Mail about your own seat (no orders received) and answers to your own mails still come. Every such mail says how to stop it.",
      auth: "required",
      body: obj({
        notices: bool("true: mail me; false: do not"),
        game: optional(str({ min: 1, max: 40, description: "a game's id or label; default: all" })),
      }),
      responses: { 404: "no mail address yet, or not a game of yours" },
      handler: async (c) => setNotices(judge, need(c.user), c.body),
    }),
    route({
      method: "POST",
      path: "/api/unsubscribe/{user}/{game}/{signature}",
      response: R.documented("the game whose mail is now off for the link's user: notices false")
        .json,
      tag: "mail",
      summary: "One-click unsubscribe (RFC 8058): the link in a mail's List-Unsubscribe header",
      description:
        "The https link of the List-Unsubscribe header of the judge's own mail, POSTed by the mail program with the body List-Unsubscribe=One-Click (application/x-www-form-urlencoded or multipart/form-data, as RFC 8058 has it; JSON too). No login: the link's signature (made by the judge for that user and that game, unguessable) is the authority, and all it can do is turn that user's mail for that game off, as POST /api/me/notices {notices: false, game} would. NOTICES ON by mail or POST /api/me/notices undoes it (docs/email.md).",
      auth: "none",
      body: obj({
        "List-Unsubscribe": oneOf(["One-Click"] as const, "RFC 8058's one-click marker"),
      }),
      responses: {
        403: "the signature is not the judge's for this user and game",
        404: "no such account, or not a game of the account's",
        415: "the body is neither form data nor JSON",
      },
      handler: async (c) =>
        oneClickUnsubscribe(judge, c.params.user!, c.params.game!, c.params.signature!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/mail",
      response: R.documented("the game's abbreviation, address and power letters (docs/email.md)")
        .json,
      tag: "mail",
      summary: "How to write to the game by mail: its abbreviation, address and power letters",
      auth: "optional",
      responses: { 404: "the game is not played by mail" },
      handler: async (c) => mailGame(judge, c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/outbox",
      response: R.documented("the mails sent or to send, in a list under their ids (docs/email.md)")
        .json,
      tag: "mail",
      summary: "GM: every mail the judge sent or keeps to send for this game",
      auth: "required",
      query: { after: "only mails with a greater id" },
      responses: { 403: "you are not the game master" },
      handler: async (c) => outbox(judge, need(c.user), c.params.id!, afterParam(c.query)),
    }),
  ];
}
