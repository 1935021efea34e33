import { gameEvents, get, post } from "./api.ts";
import { fill, h, message } from "./dom.ts";

/*
 * The chairs' timer (seed 000; src/judge/chair.ts): kept by the judge, shown the same on every
 * page of the game (the chairs' windows, the projector, each delegation's game page). A page
 * reads it from GET /api/games/{id}/chair and counts down to its `endsAt` on the judge's clock
 * (the answer's `now` gives the difference from this machine's clock); every change the chair
 * makes, and the judge announcing that the time is up, comes as a `chair_timer` event and is
 * read again. The chair's controls (start a stage, pause, resume, reset, the lengths) are
 * offered to the GM only; the judge refuses them to anybody else.
 */

export type ChairStage = "speech" | "diplomacy" | "orders";

export interface ChairLengths {
  speech: number;
  firstDiplomacy: number;
  diplomacy: number;
  orders: number;
}

export interface ChairTimer {
  stage: ChairStage | null;
  lengths: ChairLengths;
  length: number;
  running: boolean;
  endsAt: number | null;
  remainingMs: number;
  ended: boolean;
  now: number;
}

const STAGE_NAMES: Record<ChairStage, string> = {
  speech: "Speeches",
  diplomacy: "Diplomacy",
  orders: "Writing orders",
};

const BUTTONS: Record<ChairStage, string> = {
  speech: "Speech",
  diplomacy: "Diplomacy",
  orders: "Orders",
};

export const mmss = (ms: number): string => {
  const s = Math.ceil(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

/**
 * Calls `on(kind)` for each event of `kinds` the game's event stream brings from now on (the
 * backlog is skipped: its last id is read first), and `opened()` each time the stream is
 * open (at first and after a reconnection): what changed before it opened came as no event,
 * so a page reads its state again then.
 */
export function watchGame(
  id: string,
  kinds: readonly string[],
  on: (kind: string) => void,
  opened?: () => void,
): void {
  void (async () => {
    const es = await gameEvents(id);
    for (const k of kinds) es.addEventListener(k, () => on(k));
    if (opened) es.addEventListener("open", () => opened());
  })();
}

export interface ChairClock {
  /** The clock: stage, time left, running or paused. */
  readonly el: HTMLElement;
  /** The chair's controls (the GM's page only). */
  readonly controls: HTMLElement;
  /** The chair's notices: the time is up. */
  readonly notices: HTMLElement;
  refresh(): Promise<void>;
}

/**
 * The game's timer, live. `big`: the projector's clock. `chair`: with the chair's controls
 * and notices (the judge gives diplomacy the first turn's length before the first turn).
 */
export function chairClock(id: string, opts: { big?: boolean; chair?: boolean } = {}): ChairClock {
  const base = `/api/games/${encodeURIComponent(id)}`;
  let timer: ChairTimer | null = null;
  let skew = 0;
  const label = h("span", { class: "clock-label" });
  const time = h("span", { class: "clock", role: "timer", "aria-live": "off" });
  const el = h(
    "div",
    {
      class: opts.big ? "chair-clock big" : "chair-clock",
      "data-chair-clock": "",
      hidden: true,
    },
    label,
    time,
  );
  const notices = h("div", { class: "chair-notices", "aria-live": "assertive" });
  const out = h("div", { "aria-live": "polite" });
  const left = () => {
    if (!timer) return 0;
    if (timer.running && timer.endsAt !== null)
      return Math.max(0, timer.endsAt - (Date.now() + skew));
    return timer.remainingMs;
  };
  const render = () => {
    const t = timer;
    if (!t || t.stage === null) {
      el.hidden = !opts.chair;
      el.dataset.stage = "";
      label.textContent = "No timer running";
      time.textContent = "00:00";
      el.classList.remove("over", "paused");
      el.classList.add("idle");
      if (opts.chair) showControls();
      return;
    }
    const ms = left();
    el.hidden = false;
    el.dataset.stage = t.stage;
    el.dataset.running = String(t.running && ms > 0);
    el.dataset.remaining = String(Math.ceil(ms / 1000));
    time.textContent = mmss(ms);
    const name = STAGE_NAMES[t.stage];
    label.textContent = ms === 0 ? `${name}: time is up` : t.running ? name : `${name} (paused)`;
    el.classList.remove("idle");
    el.classList.toggle("over", ms === 0);
    el.classList.toggle("paused", !t.running && ms > 0);
    if (opts.chair) showControls();
  };
  // Answers are applied in the order their requests were made, never an older one over a newer:
  // a read begun before the chair's change (or before another read) and answered after it
  // would put the timer back as it was (the projector showed no timer after a start).
  let asked = 0;
  let shown = 0;
  const newer = (seq: number): boolean => {
    if (seq < shown) return false;
    shown = seq;
    return true;
  };
  const refresh = async (): Promise<boolean> => {
    const seq = ++asked;
    const c = await get<{ chaired?: boolean; timer?: ChairTimer }>(`${base}/chair`);
    const read = c.timer ?? null;
    if (newer(seq)) {
      timer = read;
      if (timer) skew = timer.now - Date.now();
      if (timer?.running) fill(notices);
      render();
    }
    return c.chaired === true || (read !== null && read.stage !== null);
  };
  setInterval(render, 250);

  // The chair's controls.
  const lengthsForm = h("div", { class: "row wrap" });
  const pauseButton = h("button", { type: "button", class: "secondary", "data-timer": "pause" });
  const act = async (body: Record<string, unknown>) => {
    const seq = ++asked;
    try {
      const t = await post<ChairTimer>(`${base}/chair/timer`, body);
      fill(out);
      if (!newer(seq)) return;
      timer = t;
      skew = t.now - Date.now();
      render();
    } catch (e) {
      fill(out, message((e as Error).message, "error"));
    }
  };
  const showControls = () => {
    const t = timer;
    const paused = t !== null && t.stage !== null && !t.running && left() > 0;
    pauseButton.textContent = paused ? "Resume" : "Pause";
    pauseButton.disabled = !t || t.stage === null || left() === 0;
  };
  pauseButton.onclick = () => void act({ action: timer?.running ? "pause" : "resume" });
  const start = (stage: ChairStage) =>
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "data-timer": stage,
        onclick: () => void act({ action: "start", stage }),
      },
      BUTTONS[stage],
    );
  const minutes = (k: keyof ChairLengths, text: string) => {
    const input = h("input", {
      type: "number",
      min: "0.5",
      step: "0.5",
      "aria-label": text,
      "data-length": k,
    });
    input.addEventListener("change", () => {
      const m = Number(input.value);
      if (!(m > 0)) return;
      void act({ action: "lengths", lengths: { [k]: Math.round(m * 60) } });
    });
    return h("label", { class: "field small" }, h("span", {}, text), input);
  };
  const lengthInputs = [
    minutes("speech", "Speech"),
    minutes("firstDiplomacy", "Diplomacy, first turn"),
    minutes("diplomacy", "Diplomacy, later turns"),
    minutes("orders", "Orders"),
  ];
  fill(lengthsForm, lengthInputs);
  const controls = opts.chair
    ? h(
        "div",
        { class: "timer-controls" },
        h(
          "div",
          { class: "row wrap" },
          start("speech"),
          start("diplomacy"),
          start("orders"),
          pauseButton,
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              "data-timer": "reset",
              onclick: () => void act({ action: "reset" }),
            },
            "Reset",
          ),
        ),
        h(
          "details",
          {
            ontoggle: () => {
              for (const l of lengthInputs) {
                const input = l.querySelector("input")!;
                const k = input.dataset.length as keyof ChairLengths;
                if (timer) input.value = String(timer.lengths[k] / 60);
              }
            },
          },
          h("summary", {}, "Timer lengths (minutes)"),
          lengthsForm,
        ),
        out,
      )
    : h("div", {});

  const kinds = opts.chair ? ["chair_timer", "chair_timer_ended"] : ["chair_timer"];
  const watch = () =>
    watchGame(
      id,
      kinds,
      (kind) => {
        if (kind === "chair_timer_ended") {
          void get<{ kind: string; data: { stage?: string; resolving?: boolean } }[]>(
            `${base}/events`,
          ).then((evs) => {
            const last = [...evs].reverse().find((e) => e.kind === "chair_timer_ended");
            const stage = (last?.data.stage ?? "orders") as ChairStage;
            fill(
              notices,
              h(
                "p",
                { class: "msg info time-up", role: "alert" },
                `Time is up: ${STAGE_NAMES[stage].toLowerCase()}. `,
                last?.data.resolving
                  ? "The judge resolves the phase now (the game's option)."
                  : stage === "orders"
                    ? "Reveal all orders when the room is ready."
                    : "Start the next timer when the room is ready.",
              ),
            );
          });
        }
        void refresh();
      },
      () => void refresh().catch(() => undefined),
    );
  // A delegation's page listens only in a chaired game (or one with a timer): the other
  // games' pages open no second event stream.
  void refresh()
    .then((timed) => {
      if (opts.chair || timed) watch();
    })
    .catch(() => undefined);
  return {
    el,
    controls,
    notices,
    refresh: async () => {
      await refresh();
    },
  };
}
