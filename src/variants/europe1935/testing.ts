/*
 * For the committee's tests only (insurrection.test.ts, acts.test.ts): a board of spring
 * 1936 on which the USSR has lost its country. Germany holds Moscow, St. Petersburg and
 * Murmansk, Turkey Rostov, Poland Siberia; no Soviet unit is left.
 */

/** The units, per power, as position JSON writes them. */
export const USSR_FALLEN_UNITS: Readonly<Record<string, string[]>> = {
  uk: ["F lon", "A edi", "F ire"],
  france: ["A par", "F bri"],
  italy: ["A ven", "F rom"],
  germany: ["A mos", "A ber"],
  turkey: ["F ank"],
  poland: ["A war"],
};

/** The supply centres, per power. */
export const USSR_FALLEN_CENTERS: Readonly<Record<string, string[]>> = {
  uk: ["lon", "edi", "ire"],
  france: ["par", "bri"],
  italy: ["ven", "rom"],
  germany: ["ber", "mos", "stp", "mur"],
  turkey: ["ank", "ros"],
  poland: ["sib", "kra"],
};
