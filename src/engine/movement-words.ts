/**
 * The resolver's words: why each order of a movement phase failed or how it succeeded, made
 * from its decisions once they no longer change (`MovementExplained`, over
 * `MovementDecisions`): strengths, supporters, the move that dislodged a unit, a paradox, a
 * broken convoy route. Lists come out in the same order whatever order the orders came in.
 */

import { MovementDecisions } from "./movement-decisions.ts";

/*
 * The explanations list orders with these two rather than `map` (with `join` or `Math.max`):
 * `map`'s arrays are packed when the interpreter makes them and holey when optimized code
 * does, and each new kind met threw the optimized explanation code away
 * (docs/performance.md, "Warm-up: shapes and deopts").
 */

/** `list.map(word).join(", ")`. */
export function listed(list: readonly number[], word: (i: number) => string): string {
  let s = "";
  for (let k = 0; k < list.length; k++) s += k === 0 ? word(list[k]!) : `, ${word(list[k]!)}`;
  return s;
}

/** `Math.max(...list.map(strength))`. */
function strongest(list: readonly number[], strength: (i: number) => number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < list.length; k++) max = Math.max(max, strength(list[k]!));
  return max;
}

export class MovementExplained extends MovementDecisions {
  // ---- Explanations -------------------------------------------------------------------

  /**
   * Orders listed by their units' provinces: every list in a text comes out the same
   * whatever order the orders were given in.
   */
  protected inPlaceOrder(list: readonly number[]): readonly number[] {
    if (list.length < 2) return list;
    const { orders } = this;
    return [...list].sort((a, b) => {
      const pa = orders[a]!.unit.province;
      const pb = orders[b]!.unit.province;
      return pa < pb ? -1 : pa > pb ? 1 : 0;
    });
  }

  protected describe(i: number): string {
    const o = this.orders[i]!;
    const u = `${o.unit.type} ${o.unit.province}`;
    if (o.kind === "move") return `${u} - ${o.to.province}`;
    return u;
  }

  protected supporters(i: number): string {
    const given = this.inPlaceOrder(this.supportsOf[i]!.filter((s) => this.res[s]));
    return given.length === 0
      ? ""
      : ` (supported by ${listed(given, (s) => `${this.orders[s]!.unit.type} ${this.orders[s]!.unit.province}`)})`;
  }

  protected strengthWith(i: number, strength: number): string {
    return `${strength}${this.supporters(i)}`;
  }

  /** Why a successful order succeeded. */
  protected explainSuccess(i: number): string {
    const o = this.orders[i]!;
    switch (o.kind) {
      case "move": {
        const attack = this.attackStrength(i);
        const against: string[] = [];
        const k = this.h2h[i]!;
        const d = this.there[i]!;
        if (k !== -1) {
          against.push(
            `${this.describe(k)}'s defence ${this.strengthWith(k, this.defendStrength(k))}`,
          );
        } else if (d !== -1 && !(this.orders[d]!.kind === "move" && this.res[d])) {
          against.push(`${this.describe(d)}'s hold ${this.strengthWith(d, this.holdStrength(d))}`);
        }
        for (const m of this.inPlaceOrder(this.movesAt(this.intoThere[i]!))) {
          if (m !== i)
            against.push(`${this.describe(m)} ${this.strengthWith(m, this.preventStrength(m))}`);
        }
        const how = this.usesConvoy[i] ? " by convoy" : "";
        const vs = against.length === 0 ? "unopposed" : `against ${against.join(", ")}`;
        const stays = d !== -1 && !(this.orders[d]!.kind === "move" && this.res[d]);
        const dislodging = stays ? `, dislodging ${this.describe(d)}` : "";
        return `moved${how} with strength ${this.strengthWith(i, attack)} ${vs}${dislodging}`;
      }
      case "support": {
        const t = this.there[i]!;
        return `support given to ${this.describe(t)}${o.to === null ? " to hold" : ""}`;
      }
      case "convoy":
        return `carried the army from ${o.from} to ${o.to}`;
      case "hold": {
        const attackers = this.inPlaceOrder(
          this.movesAt(this.intoHere[i]!).filter((m) => this.path(m)),
        );
        return attackers.length === 0
          ? "held; not attacked"
          : `held with strength ${this.strengthWith(i, this.holdStrength(i))} against ${listed(attackers, (m) => `${this.describe(m)} ${this.strengthWith(m, this.attackStrength(m))}`)}`;
      }
    }
  }

  protected paradoxReason(m: number): string {
    if (this.rules.convoyParadox === "alternative-c" && this.stage[m]! >= 3) {
      return `convoy paradox: by Alternative C (step ${this.stage[m]}) the convoyed army fails and holds${this.half[m] ? " at half strength" : ""}, without support`;
    }
    return this.rules.convoyParadox === "szykman"
      ? "convoy paradox: by the Szykman rule the convoyed army does not move"
      : "convoy paradox: every move in the paradox fails (all-hold rule)";
  }

  /** Said after an order whose unit the paradox procedure rated at half strength. */
  protected halfNote(i: number): string {
    return this.half[i] && !this.paradox[i]
      ? ` (convoy paradox, Alternative C step ${this.stage[i]}: rated at half strength)`
      : "";
  }

  /** Why order `i` did not succeed; a dislodged unit always says by whom. */
  protected explain(i: number, dislodgedBy: readonly number[]): string {
    const by = dislodgedBy[i]!;
    const dislodged = by !== -1 ? `dislodged by ${this.describe(by)}` : null;
    const cause = this.cause(i, dislodged);
    return dislodged && !cause.includes(dislodged) ? `${cause}; ${dislodged}` : cause;
  }

  /**
   * Why convoyed move `m` has no convoy: no fleet ordered, fleets that form no chain, or a
   * chain broken by the dislodgement of the fleets named.
   */
  protected brokenRoute(m: number): string {
    const o = this.orders[m]!;
    const fleets = this.inPlaceOrder(this.convoysOf[m]!);
    if (fleets.length === 0) return "no convoy: no fleet was ordered to convoy it";
    const route = o.kind === "move" ? `from ${o.unit.province} to ${o.to.province}` : "";
    const names = (list: readonly number[]) => listed(list, (c) => this.describe(c));
    if (!this.anyRoute[m]) {
      return `no convoy: the fleets ordered to convoy it (${names(fleets)}) form no chain ${route}`;
    }
    const lost = fleets.filter((c) => !this.resolve(c));
    return lost.length === 1
      ? `convoy disrupted: the convoying fleet ${names(lost)} was dislodged`
      : `convoy disrupted: the convoying fleets ${names(lost)} were dislodged`;
  }

  protected cause(i: number, dislodged: string | null): string {
    const o = this.orders[i]!;
    switch (o.kind) {
      case "hold":
        return dislodged ?? "held, yet reported failed: a resolver error";
      case "convoy": {
        const m = this.convoyed[i]!;
        if (dislodged) return `${dislodged}; the convoy is disrupted`;
        if (m === -1) return `no army in ${o.from} is ordered to move to ${o.to}`;
        if (!this.usesConvoy[m]) return `the army in ${o.from} moves over land, not by this convoy`;
        if (this.paradox[m]) return this.paradoxReason(m);
        return `the army is not carried: ${this.brokenRoute(m)}`;
      }
      case "support": {
        if (this.voidSupport[i]) {
          const t = this.there[i]!;
          if (t === -1) return `no unit in ${o.target} to support`;
          const to = this.orders[t]!;
          if (o.to === null) return `${this.describe(t)} did not hold: it was ordered to move`;
          return to.kind === "move"
            ? `${this.describe(t)} did not move to ${o.to}${o.toCoast && to.to.coast && o.toCoast !== to.to.coast ? ` ${o.toCoast}` : ""}`
            : `${this.describe(t)} was not ordered to move to ${o.to}`;
        }
        if (dislodged) return `${dislodged}; the support is cut`;
        const cutters = this.inPlaceOrder(
          this.movesAt(this.intoHere[i]!).filter((m) => this.cuts(m, i)),
        );
        return `support cut by ${listed(cutters, (m) => this.describe(m))}`;
      }
      case "move": {
        if (this.paradox[i]) {
          return this.paradoxReason(i);
        }
        if (!this.path(i)) return this.brokenRoute(i);
        const attack = this.attackStrength(i);
        const d = this.there[i]!;
        if (attack === 0 && d !== -1) {
          return `cannot dislodge a unit of its own power (${this.describe(d)})`;
        }
        const k = this.h2h[i]!;
        const parts: string[] = [];
        if (k !== -1) {
          const def = this.defendStrength(k);
          if (attack <= def) {
            parts.push(
              `lost the head-to-head battle with ${this.describe(k)}${this.supporters(k)}: ${attack} against ${def}`,
            );
          }
        } else {
          const hold = this.holdStrength(d);
          if (attack <= hold && d !== -1) {
            parts.push(
              `bounced off ${this.describe(d)}${this.supporters(d)}: ${attack} against ${hold}`,
            );
          }
        }
        const rivals = this.inPlaceOrder(
          this.movesAt(this.intoThere[i]!).filter(
            (m) => m !== i && attack <= this.preventStrength(m),
          ),
        );
        if (rivals.length > 0) {
          parts.push(
            `bounced with ${listed(rivals, (m) => `${this.describe(m)}${this.supporters(m)}`)}: ${attack} against ${strongest(rivals, (m) => this.preventStrength(m))}`,
          );
        }
        if (parts.length === 0 && this.backup[i]) parts.push(this.paradoxReason(i));
        return parts.length > 0
          ? parts.join("; ")
          : "did not move, yet nothing stopped it: a resolver error";
      }
    }
  }
}
