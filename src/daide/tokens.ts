/*
 * DAIDE tokens: every token is two bytes, a category byte and a number in it. The categories
 * and the values of the fixed tokens (commands, orders, notes, results, parameters, press) are
 * the protocol's; power and province tokens belong to a map (mapdef.ts gives them for each
 * game). Integers take the categories below 0x40 (a 14-bit two's complement number); text is
 * one ASCII character per token (category 0x4B).
 */

/** A token as its 16-bit value (category byte high, number low). */
export type Token = number;

export const CATEGORY = {
  bracket: 0x40,
  power: 0x41,
  unit: 0x42,
  order: 0x43,
  note: 0x44,
  result: 0x45,
  coast: 0x46,
  season: 0x47,
  command: 0x48,
  parameter: 0x49,
  press: 0x4a,
  ascii: 0x4b,
} as const;

/** The province categories: 0x50 + 1 for a supply centre + 2 sea, 4 coastal, 6 bicoastal. */
export const PROVINCE_FIRST = 0x50;
export const PROVINCE_LAST = 0x57;

const t = (category: number, n: number): Token => (category << 8) | n;

/** The fixed tokens by name: the same in every game. */
const FIXED: Readonly<Record<string, Token>> = {
  "(": t(CATEGORY.bracket, 0),
  ")": t(CATEGORY.bracket, 1),
  AMY: t(CATEGORY.unit, 0),
  FLT: t(CATEGORY.unit, 1),
  // Orders.
  CTO: t(CATEGORY.order, 0x20),
  CVY: t(CATEGORY.order, 0x21),
  HLD: t(CATEGORY.order, 0x22),
  MTO: t(CATEGORY.order, 0x23),
  SUP: t(CATEGORY.order, 0x24),
  VIA: t(CATEGORY.order, 0x25),
  DSB: t(CATEGORY.order, 0x40),
  RTO: t(CATEGORY.order, 0x41),
  BLD: t(CATEGORY.order, 0x80),
  REM: t(CATEGORY.order, 0x81),
  WVE: t(CATEGORY.order, 0x82),
  // Order notes (THX).
  MBV: t(CATEGORY.note, 0x00),
  BPR: t(CATEGORY.note, 0x01),
  CST: t(CATEGORY.note, 0x02),
  ESC: t(CATEGORY.note, 0x03),
  FAR: t(CATEGORY.note, 0x04),
  HSC: t(CATEGORY.note, 0x05),
  NAS: t(CATEGORY.note, 0x06),
  NMB: t(CATEGORY.note, 0x07),
  NMR: t(CATEGORY.note, 0x08),
  NRN: t(CATEGORY.note, 0x09),
  NRS: t(CATEGORY.note, 0x0a),
  NSA: t(CATEGORY.note, 0x0b),
  NSC: t(CATEGORY.note, 0x0c),
  NSF: t(CATEGORY.note, 0x0d),
  NSP: t(CATEGORY.note, 0x0e),
  NSU: t(CATEGORY.note, 0x10),
  NVR: t(CATEGORY.note, 0x11),
  NYU: t(CATEGORY.note, 0x12),
  YSC: t(CATEGORY.note, 0x13),
  // Order results (ORD).
  SUC: t(CATEGORY.result, 0),
  BNC: t(CATEGORY.result, 1),
  CUT: t(CATEGORY.result, 2),
  DSR: t(CATEGORY.result, 3),
  FLD: t(CATEGORY.result, 4),
  NSO: t(CATEGORY.result, 5),
  RET: t(CATEGORY.result, 6),
  // Coasts.
  NCS: t(CATEGORY.coast, 0x00),
  NEC: t(CATEGORY.coast, 0x02),
  ECS: t(CATEGORY.coast, 0x04),
  SEC: t(CATEGORY.coast, 0x06),
  SCS: t(CATEGORY.coast, 0x08),
  SWC: t(CATEGORY.coast, 0x0a),
  WCS: t(CATEGORY.coast, 0x0c),
  NWC: t(CATEGORY.coast, 0x0e),
  // Seasons.
  SPR: t(CATEGORY.season, 0),
  SUM: t(CATEGORY.season, 1),
  FAL: t(CATEGORY.season, 2),
  AUT: t(CATEGORY.season, 3),
  WIN: t(CATEGORY.season, 4),
  // Commands.
  CCD: t(CATEGORY.command, 0x00),
  DRW: t(CATEGORY.command, 0x01),
  FRM: t(CATEGORY.command, 0x02),
  GOF: t(CATEGORY.command, 0x03),
  HLO: t(CATEGORY.command, 0x04),
  HST: t(CATEGORY.command, 0x05),
  HUH: t(CATEGORY.command, 0x06),
  IAM: t(CATEGORY.command, 0x07),
  LOD: t(CATEGORY.command, 0x08),
  MAP: t(CATEGORY.command, 0x09),
  MDF: t(CATEGORY.command, 0x0a),
  MIS: t(CATEGORY.command, 0x0b),
  NME: t(CATEGORY.command, 0x0c),
  NOT: t(CATEGORY.command, 0x0d),
  NOW: t(CATEGORY.command, 0x0e),
  OBS: t(CATEGORY.command, 0x0f),
  OFF: t(CATEGORY.command, 0x10),
  ORD: t(CATEGORY.command, 0x11),
  OUT: t(CATEGORY.command, 0x12),
  PRN: t(CATEGORY.command, 0x13),
  REJ: t(CATEGORY.command, 0x14),
  SCO: t(CATEGORY.command, 0x15),
  SLO: t(CATEGORY.command, 0x16),
  SND: t(CATEGORY.command, 0x17),
  SUB: t(CATEGORY.command, 0x18),
  SVE: t(CATEGORY.command, 0x19),
  THX: t(CATEGORY.command, 0x1a),
  TME: t(CATEGORY.command, 0x1b),
  YES: t(CATEGORY.command, 0x1c),
  ADM: t(CATEGORY.command, 0x1d),
  SMR: t(CATEGORY.command, 0x1e),
  // Parameters.
  AOA: t(CATEGORY.parameter, 0x00),
  BTL: t(CATEGORY.parameter, 0x01),
  ERR: t(CATEGORY.parameter, 0x02),
  LVL: t(CATEGORY.parameter, 0x03),
  MRT: t(CATEGORY.parameter, 0x04),
  MTL: t(CATEGORY.parameter, 0x05),
  NPB: t(CATEGORY.parameter, 0x06),
  NPR: t(CATEGORY.parameter, 0x07),
  PDA: t(CATEGORY.parameter, 0x08),
  PTL: t(CATEGORY.parameter, 0x09),
  RTL: t(CATEGORY.parameter, 0x0a),
  UNO: t(CATEGORY.parameter, 0x0b),
  DSD: t(CATEGORY.parameter, 0x0d),
  // Press (levels 10 and up): known so that a client's press is read and refused properly.
  ALY: t(CATEGORY.press, 0x00),
  AND: t(CATEGORY.press, 0x01),
  BWX: t(CATEGORY.press, 0x02),
  DMZ: t(CATEGORY.press, 0x03),
  ELS: t(CATEGORY.press, 0x04),
  EXP: t(CATEGORY.press, 0x05),
  FCT: t(CATEGORY.press, 0x06),
  FOR: t(CATEGORY.press, 0x07),
  FWD: t(CATEGORY.press, 0x08),
  HOW: t(CATEGORY.press, 0x09),
  IDK: t(CATEGORY.press, 0x0a),
  IFF: t(CATEGORY.press, 0x0b),
  INS: t(CATEGORY.press, 0x0c),
  OCC: t(CATEGORY.press, 0x0e),
  ORR: t(CATEGORY.press, 0x0f),
  PCE: t(CATEGORY.press, 0x10),
  POB: t(CATEGORY.press, 0x11),
  PRP: t(CATEGORY.press, 0x13),
  QRY: t(CATEGORY.press, 0x14),
  SCD: t(CATEGORY.press, 0x15),
  SRY: t(CATEGORY.press, 0x16),
  SUG: t(CATEGORY.press, 0x17),
  THK: t(CATEGORY.press, 0x18),
  THN: t(CATEGORY.press, 0x19),
  TRY: t(CATEGORY.press, 0x1a),
  VSS: t(CATEGORY.press, 0x1c),
  WHT: t(CATEGORY.press, 0x1d),
  WHY: t(CATEGORY.press, 0x1e),
  XDO: t(CATEGORY.press, 0x1f),
  XOY: t(CATEGORY.press, 0x20),
  YDO: t(CATEGORY.press, 0x21),
  CHO: t(CATEGORY.press, 0x22),
  BCC: t(CATEGORY.press, 0x23),
  UNT: t(CATEGORY.press, 0x24),
  NAR: t(CATEGORY.press, 0x25),
  CCL: t(CATEGORY.press, 0x26),
};

/** A fixed token by name; throws for a name that is not one (a mistake in this code). */
export function tok(name: string): Token {
  const v = FIXED[name];
  if (v === undefined) throw new Error(`no fixed DAIDE token "${name}"`);
  return v;
}

const FIXED_NAMES = new Map<Token, string>(Object.entries(FIXED).map(([k, v]) => [v, k]));

/** The fixed token's name, if it is one. */
export const fixedName = (token: Token): string | undefined => FIXED_NAMES.get(token);

/** Every fixed token's name (a map's own names must not take one of these). */
export const fixedNames = (): ReadonlySet<string> => new Set(Object.keys(FIXED));

export const categoryOf = (token: Token): number => token >> 8;

export const isInteger = (token: Token): boolean => token >> 14 === 0;

export const isAscii = (token: Token): boolean => categoryOf(token) === CATEGORY.ascii;

export const isProvince = (token: Token): boolean => {
  const c = categoryOf(token);
  return c >= PROVINCE_FIRST && c <= PROVINCE_LAST;
};

export const isPower = (token: Token): boolean => categoryOf(token) === CATEGORY.power;

/** The integer a token stands for (its category below 0x40): 14 bits, two's complement. */
export function intValue(token: Token): number {
  const v = token & 0x3fff;
  return v & 0x2000 ? v - 0x4000 : v;
}

/** The token for an integer from -8192 to 8191. */
export function intToken(n: number): Token {
  if (!Number.isInteger(n) || n < -8192 || n > 8191)
    throw new RangeError(`a DAIDE integer is from -8192 to 8191, not ${n}`);
  return n & 0x3fff;
}

/** The tokens of a text: one ASCII token per character (codes 0 to 255). */
export function textTokens(text: string): Token[] {
  const out: Token[] = [];
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    out.push((CATEGORY.ascii << 8) | (c <= 0xff ? c : 0x3f));
  }
  return out;
}

/** The token of a province category for a province of this kind. */
export function provinceCategory(kind: "land" | "sea" | "coast", coasts: number, sc: boolean) {
  const base = kind === "land" ? 0 : kind === "sea" ? 2 : coasts > 0 ? 6 : 4;
  return PROVINCE_FIRST + base + (sc ? 1 : 0);
}
