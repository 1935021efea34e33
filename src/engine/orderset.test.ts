import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { europe1935 } from "../variants/europe1935/index.ts";
import { type OrderLine, readOrderSet, readSubject, writeSubject } from "./orderset.ts";
import { parsePhase } from "./phase.ts";
import { DATC_RULES, HOUSE_RULES } from "./rules.ts";
import { powerId } from "./types.ts";

/*
 * Order sets as a player mails them (seed 002 II(1), II(2), III(1), III(2)): one order per
 * line, chatter, headers, "Final", a quoted earlier mail and a signature; a verdict per line.
 */

const france = powerId("france");
const austria = powerId("austria");
const england = powerId("england");

const byText = (lines: readonly OrderLine[], text: string): OrderLine => {
  const l = lines.find((x) => x.text === text);
  assert.ok(l, `no line ${text}`);
  return l;
};

const MAIL = `Hi GM,

here are my orders for this turn:

A Pari - Burgndy
A mar S A par - bur
F Brest - Picardy
A mar - lon
A Pras - bur
A par - Tyo

Final

Thanks, and good luck to all!
> A par - gas (my old orders)
--
Jean
A par - pic`;

describe("readOrderSet", () => {
  test("a mail body with the board: understood, illegal, unreadable, ambiguous; chatter ignored", () => {
    const set = readOrderSet(MAIL, classical, france, {
      rules: HOUSE_RULES,
      position: classical.start,
    });
    assert.equal(set.final, true);
    assert.deepEqual(set.orders.get(france), [
      "A Pari - Burgndy",
      "A mar S A par - bur",
      "F Brest - Picardy",
      "A mar - lon",
      "A Pras - bur",
      "A par - Tyo",
    ]);
    const first = byText(set.lines, "A Pari - Burgndy");
    assert.equal(first.status, "understood");
    assert.equal(first.order, "A par - bur");
    assert.deepEqual(first.notes, ['read "Pari" as Paris', 'read "Burgndy" as Burgundy']);
    assert.equal(byText(set.lines, "F Brest - Picardy").order, "F bre - pic");
    const illegal = byText(set.lines, "A mar - lon");
    assert.equal(illegal.status, "illegal");
    assert.match(illegal.reason ?? "", /not adjacent/);
    // "Pras" is two letters from Paris: too far to correct in four letters; did you mean.
    const unread = byText(set.lines, "A Pras - bur");
    assert.equal(unread.status, "unreadable");
    assert.ok((unread.suggestions ?? []).length > 0);
    assert.match(unread.reason ?? "", /did you mean/);
    // Tyrolia is the only reading an army in Paris... cannot make either: ambiguous.
    const amb = byText(set.lines, "A par - Tyo");
    assert.equal(amb.status, "ambiguous");
    assert.equal(amb.readings?.length, 3);
    // Ignored lines.
    assert.equal(byText(set.lines, "Hi GM,").kind, "chatter");
    assert.equal(byText(set.lines, "here are my orders for this turn:").kind, "chatter");
    assert.equal(byText(set.lines, "Thanks, and good luck to all!").kind, "chatter");
    assert.equal(byText(set.lines, "> A par - gas (my old orders)").kind, "quoted");
    assert.equal(byText(set.lines, "A par - pic").kind, "signature");
    assert.equal(byText(set.lines, "Final").kind, "final");
    assert.equal(set.lines.length, MAIL.split("\n").length);
    assert.deepEqual(
      set.lines.map((l) => l.line),
      set.lines.map((_, i) => i + 1),
    );
  });

  test("with the DATC profile the same typos are did-you-mean, not corrected", () => {
    const set = readOrderSet("A Pari - Burgndy", classical, france, { rules: DATC_RULES });
    assert.equal(set.lines[0]!.status, "unreadable");
    assert.match(set.lines[0]!.reason ?? "", /did you mean Paris/);
    assert.equal(set.final, false, "preliminary unless marked final (II(1))");
  });

  test("without a position only the text is read; several readings are ambiguous", () => {
    const set = readOrderSet("A vie - Tyo\nA vie - tyr", classical, null, {
      rules: HOUSE_RULES,
    });
    assert.equal(set.lines[0]!.status, "ambiguous");
    assert.equal(set.lines[1]!.status, "understood");
    assert.deepEqual(set.unassigned, ["A vie - Tyo", "A vie - tyr"], "no power known");
  });

  test("power headers, inline powers, and list marks", () => {
    const text = [
      "ENGLAND:",
      "F lon - nth",
      "1. F edi - nwg",
      "French orders",
      "A par - bur",
      "England: A lvp - yor",
    ].join("\n");
    const set = readOrderSet(text, classical, undefined, {
      rules: HOUSE_RULES,
      position: classical.start,
    });
    assert.deepEqual(set.powers, [england, france]);
    assert.deepEqual(set.orders.get(england), ["F lon - nth", "F edi - nwg", "A lvp - yor"]);
    assert.deepEqual(set.orders.get(france), ["A par - bur"]);
    assert.equal(set.lines[0]!.kind, "power");
    assert.equal(set.lines[2]!.order, "F edi - nwg");
    assert.equal(set.lines[5]!.power, england);
    assert.ok(set.lines.filter((l) => l.kind === "order").every((l) => l.status === "understood"));
  });

  test("a subject line in the seed's form names the power and the phase", () => {
    const set = readOrderSet("Subject: SED 01SF\n\nA par - bur", classical, null, {
      rules: HOUSE_RULES,
    });
    assert.deepEqual(set.subject, {
      game: "SED",
      phase: { season: "S", year: 1901, type: "M" },
      power: france,
    });
    assert.deepEqual(set.orders.get(france), ["A par - bur"]);
  });
});

describe("readSubject (seed 002 II(2))", () => {
  test("the seed's four examples", () => {
    const s = (t: string) => {
      const r = readSubject(t, classical);
      return r && `${r.game} ${r.phase.season}${r.phase.year}${r.phase.type} ${r.power}`;
    };
    assert.equal(s("SED 01SA"), "SED S1901M austria");
    assert.equal(s("SED 02UE"), "SED U1902R england");
    assert.equal(s("SED 03FF"), "SED F1903M france");
    assert.equal(s("Re: SED 04WG"), "SED W1904R germany");
    assert.equal(s("SED 01SX"), null, "no power has the letter X");
    assert.equal(s("my orders"), null);
  });

  test("writeSubject writes the subject readSubject reads, for every kind of phase", () => {
    for (const [phase, power, subject] of [
      ["S1901M", "austria", "SED 01SA"],
      ["S1902R", "england", "SED 02UE"],
      ["U1902R", "england", "SED 02UE"],
      ["F1903M", "france", "SED 03FF"],
      ["F1904R", "germany", "SED 04WG"],
      ["W1904A", "germany", "SED 04WG"],
      ["W1904R", "turkey", "SED 04WT"],
    ] as const) {
      const written = writeSubject("SED", parsePhase(phase)!, power, classical);
      assert.equal(written, subject, phase);
      assert.equal(readSubject(written!, classical)?.power, power, `${subject} reads back`);
    }
    assert.equal(writeSubject("SED", parsePhase("S1901M")!, "narnia", classical), null);
  });
});

test("an order written without spaces around its dash is an order, however garbled (never dropped as chatter)", () => {
  const set = readOrderSet(
    "A bud-srb\nF tri-adr\nWell-known facts, I'm afraid.",
    classical,
    austria,
    {
      position: classical.start,
    },
  );
  const expected: [string, keyof OrderLine, string, string][] = [
    ["A bud-srb", "kind", "order", "a misspelt target is still an order line"],
    ["A bud-srb", "status", "unreadable", "and it says it was not understood"],
    ["F tri-adr", "order", "F tri - adr", "an unspaced dash reads as a move"],
    ["Well-known facts, I'm afraid.", "kind", "chatter", "hyphenated prose stays chatter"],
  ];
  for (const [text, field, want, why] of expected)
    assert.equal(byText(set.lines, text)[field], want, why);
});

test("a variant's own orders (europe1935's insurrections and revivals) are orders, read by the variant, in their place", () => {
  const v = europe1935;
  const uk = powerId("uk");
  const set = readOrderSet(
    "Orders for the UK:\nF Lon - Nth\nF I Lon-Russia\nRevive Mos > Stp > Ros\nRevive Mos, Stp\nThanks!",
    v,
    uk,
    { position: v.start },
  );
  assert.deepEqual(
    set.orders.get(uk),
    ["F Lon - Nth", "F I Lon-Russia", "Revive Mos > Stp > Ros", "Revive Mos, Stp"],
    "every order line kept, in the order written (chatter left out)",
  );
  assert.equal(byText(set.lines, "F I Lon-Russia").status, "understood", "an insurrection order");
  assert.equal(byText(set.lines, "Revive Mos > Stp > Ros").status, "understood", "a revival");
  const bad = byText(set.lines, "Revive Mos, Stp");
  assert.equal(bad.status, "unreadable", "a revival without an order of preference");
  assert.match(bad.reason ?? "", /order of preference/, "says what is missing");
  assert.equal(byText(set.lines, "Thanks!").kind, "chatter", "chatter stays chatter");
});

describe("dated sheets (seed 000: All orders must be dated) and numbered lists", () => {
  const v = europe1935;
  const germany = powerId("germany");
  const spring1935 = v.start; // S1935M
  const fall = { ...v.start, phase: { season: "F" as const, year: 1935, type: "M" as const } };
  const winter = { ...v.start, phase: { season: "W" as const, year: 1935, type: "A" as const } };

  test("a date line in any usual form is the sheet's date, never an order", () => {
    const forms = [
      "Spring 1935",
      "SPRING 1935:",
      "Spring, 1935",
      "Spring of 1935",
      "S1935M",
      "S1935",
      "s 1935 m",
      "Spring 1935 Movement",
      "Spring 1935 moves",
      "Spring 1935 orders",
      "Orders for Spring 1935",
      "Orders: Spring 1935",
      "Date: Spring 1935",
      "Germany, Spring 1935",
      "Germany - Spring 1935",
      "Germany: Spring 1935",
      "German orders, Spring 1935",
      "Orders for Germany, Spring 1935",
      "1. Spring 1935",
    ];
    for (const date of forms) {
      const set = readOrderSet(`${date}\nA Mun - Ruh\nF Ham H`, v, germany, {
        position: spring1935,
      });
      const line = set.lines[0]!;
      assert.equal(line.kind, "date", `${date}: a date`);
      assert.equal(set.dateError, null, `${date}: the phase ordered`);
      assert.deepEqual(
        [set.date?.season, set.date?.year],
        ["S", 1935],
        `${date}: read as Spring 1935`,
      );
      assert.deepEqual(set.orders.get(germany), ["A Mun - Ruh", "F Ham H"], `${date}: orders`);
      assert.equal(set.unassigned.length, 0);
    }
    const named = readOrderSet("Germany, Spring 1935\nA Mun - Ruh", v, null, {
      position: spring1935,
    });
    assert.deepEqual(named.powers, ["germany"], "a date naming the power is its header too");
    assert.deepEqual(named.orders.get(germany), ["A Mun - Ruh"]);
  });

  test("a date naming another phase refuses the sheet, saying which phase is open", () => {
    const set = readOrderSet("Spring 1936\nA Mun - Ruh", v, germany, { position: fall });
    assert.match(set.dateError ?? "", /dated "Spring 1936"/, "says the date written");
    assert.match(set.dateError ?? "", /Fall 1935 movement \(F1935M\)/, "and the phase open");
    assert.match(set.dateError ?? "", /none of the sheet's orders were used/);
    for (const [date, position] of [
      ["Fall 1935", spring1935],
      ["F1935R", fall],
      ["S1935M", fall],
      ["Spring 1935 retreats", spring1935],
    ] as const) {
      const s = readOrderSet(`${date}\nA Mun H`, v, germany, { position });
      assert.ok(s.dateError, `${date} is not ${position.phase.season}${position.phase.year}`);
    }
    const late = readOrderSet("Fall 1935\nA Mun H\nSpring 1936\nA Mun - Ruh", v, germany, {
      position: fall,
    });
    assert.match(late.dateError ?? "", /line 3/, "a second date for another phase too");
    assert.equal(readOrderSet("Spring 1936\nA Mun H", v, germany).dateError, null, "no phase");
  });

  test("the fall's adjustments may be dated Fall or Winter; the type, when written, must fit", () => {
    for (const date of ["Fall 1935", "Winter 1935", "F1935A", "W1935A", "Fall 1935 builds"]) {
      const s = readOrderSet(`${date}\nBuild A Mun`, v, germany, { position: winter });
      assert.equal(s.dateError, null, `${date} names W1935A`);
    }
    assert.ok(readOrderSet("F1935M\nBuild A Mun", v, germany, { position: winter }).dateError);
  });

  test("lines that only look like dates stay what they are", () => {
    const set = readOrderSet(
      "See you in Spring 1936!\nA Mun - Ruh\nFall back to Spring 1936",
      v,
      germany,
      { position: spring1935 },
    );
    assert.equal(set.date, null, "chatter with a date in it is no date");
    assert.equal(set.dateError, null);
    assert.deepEqual(set.orders.get(germany), ["A Mun - Ruh"]);
  });

  test("numbered order lists are orders", () => {
    const set = readOrderSet(
      "Spring 1901\n1. A Par - Bur\n2) F Bre - Mid\n(3) A Mar H",
      classical,
      france,
      { position: classical.start },
    );
    assert.deepEqual(
      set.lines.slice(1).map((l) => [l.kind, l.status]),
      [
        ["order", "understood"],
        ["order", "understood"],
        ["order", "understood"],
      ],
      JSON.stringify(set.lines),
    );
    assert.equal(set.dateError, null);
  });
});
