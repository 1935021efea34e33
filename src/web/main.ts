import { session } from "./api.ts";
import { chairPage } from "./chair.ts";
import { fill, h, startClocks } from "./dom.ts";
import { gamePage } from "./game.ts";
import { joinPage, lobbyPage } from "./lobby.ts";
import { sandboxPage } from "./sandbox.ts";

/*
 * The web client's entry point: one script for every page, chosen by the path
 * (/, /game/ID, /chair/ID, /sandbox, /join/CODE). docs/web.md describes the pages.
 */

function nav(): void {
  const el = document.getElementById("nav");
  if (!el) return;
  const cb = localStorage.getItem("entente.palette") === "colorblind";
  fill(
    el,
    h("a", { href: "/" }, "Lobby"),
    h("a", { href: "/sandbox" }, "Sandbox"),
    h("a", { href: "/api/docs" }, "API"),
    h(
      "button",
      {
        type: "button",
        class: "link",
        "aria-pressed": cb ? "true" : "false",
        title: "colour-blind-safe colours",
        onclick: () => {
          localStorage.setItem("entente.palette", cb ? "standard" : "colorblind");
          location.reload();
        },
      },
      "Palette",
    ),
    session.user
      ? h(
          "button",
          {
            type: "button",
            class: "link",
            onclick: () => {
              session.clear();
              location.href = "/";
            },
          },
          `Log out ${session.user}`,
        )
      : null,
  );
}

async function route(): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  nav();
  startClocks();
  const path = location.pathname;
  const game = /^\/game\/([^/]+)$/.exec(path);
  const chair = /^\/chair\/([^/]+)$/.exec(path);
  const join = /^\/join\/([^/]+)$/.exec(path);
  try {
    if (game) await gamePage(app, decodeURIComponent(game[1]!));
    else if (chair) await chairPage(app, decodeURIComponent(chair[1]!));
    else if (join) await joinPage(app, decodeURIComponent(join[1]!));
    else if (path === "/sandbox") await sandboxPage(app);
    else await lobbyPage(app);
  } catch (e) {
    fill(app, h("p", { class: "msg error", role: "alert" }, (e as Error).message));
  }
}

void route();
