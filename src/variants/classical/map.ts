/*
 * The standard Diplomacy board (1982 rulebook): 75 provinces, 19 of them seas, 14 inland and
 * 42 coastal; 34 supply centres, 22 of them home centres.
 *
 * Army and fleet adjacency are written separately, each from both ends (GameMap checks that
 * they agree). Fleets move only along a shared coastline or sea; the three split-coast
 * provinces (Spain, St Petersburg, Bulgaria) list their fleet moves per coast. Kiel and
 * Constantinople are canals a fleet can pass through, and Denmark joins the North Sea side to
 * the Baltic.
 *
 * One province a line: id, name, kind, army neighbours, fleet moves (per coast for a
 * split-coast province), then its aliases and whose home centre it is (`centre`: a neutral
 * supply centre).
 */
import type { MapData, ProvinceData } from "../../engine/map.ts";
import type { Coast, ProvinceKind } from "../../engine/types.ts";

/** The rest of a province: other names, whose home centre it is, or a neutral centre. */
interface More {
  readonly aliases?: readonly string[];
  readonly home?: string;
  readonly centre?: true;
}

/** A province from its line (place lists space-separated), fields in the format's order. */
function p(
  id: string,
  name: string,
  kind: ProvinceKind,
  army: string,
  fleet: string | Partial<Record<Coast, string>>,
  more: More = {},
): ProvinceData {
  const list = (s: string): string[] => (s === "" ? [] : s.split(" "));
  return {
    id,
    name,
    ...(more.aliases ? { aliases: more.aliases } : {}),
    kind,
    ...(more.home !== undefined || more.centre ? { supplyCenter: true } : {}),
    ...(more.home !== undefined ? { home: more.home } : {}),
    army: list(army),
    fleet: typeof fleet === "string" ? list(fleet) : [],
    ...(typeof fleet === "string"
      ? {}
      : {
          coasts: Object.fromEntries(Object.entries(fleet).map(([c, l]) => [c, list(l ?? "")])),
        }),
  };
}

export const classicalMapData: MapData = {
  provinces: [
    p("adr", "Adriatic Sea", "sea", "", "alb apu ion tri ven", { aliases: ["Adriatic"] }),
    p("aeg", "Aegean Sea", "sea", "", "bul/sc con eas gre ion smy", { aliases: ["Aegean"] }),
    p("alb", "Albania", "coast", "gre ser tri", "adr gre ion tri"),
    p("ank", "Ankara", "coast", "arm con smy", "arm bla con", { home: "turkey" }),
    p("apu", "Apulia", "coast", "nap rom ven", "adr ion nap ven"),
    p("arm", "Armenia", "coast", "ank sev smy syr", "ank bla sev"),
    p("bal", "Baltic Sea", "sea", "", "ber bot den kie lvn pru swe", { aliases: ["Baltic"] }),
    p("bar", "Barents Sea", "sea", "", "nwg nwy stp/nc", { aliases: ["Barents"] }),
    p("bel", "Belgium", "coast", "bur hol pic ruh", "eng hol nth pic", { centre: true }),
    p("ber", "Berlin", "coast", "kie mun pru sil", "bal kie pru", { home: "germany" }),
    p("bla", "Black Sea", "sea", "", "ank arm bul/ec con rum sev", { aliases: ["Black"] }),
    p("boh", "Bohemia", "land", "gal mun sil tyr vie", ""),
    p("bot", "Gulf of Bothnia", "sea", "", "bal fin lvn stp/sc swe", {
      aliases: ["Bothnia", "gob"],
    }),
    p("bre", "Brest", "coast", "gas par pic", "eng gas mao pic", { home: "france" }),
    p("bud", "Budapest", "land", "gal rum ser tri vie", "", { home: "austria" }),
    p(
      "bul",
      "Bulgaria",
      "coast",
      "con gre rum ser",
      { ec: "bla con rum", sc: "aeg con gre" },
      { centre: true },
    ),
    p("bur", "Burgundy", "land", "bel gas mar mun par pic ruh", ""),
    p("cly", "Clyde", "coast", "edi lvp", "edi lvp nao nwg"),
    p("con", "Constantinople", "coast", "ank bul smy", "aeg ank bla bul/ec bul/sc smy", {
      home: "turkey",
    }),
    p("den", "Denmark", "coast", "kie swe", "bal hel kie nth ska swe", { centre: true }),
    p("eas", "Eastern Mediterranean", "sea", "", "aeg ion smy syr", {
      aliases: ["Eastern Med", "Eastern Mediterranean Sea", "eme"],
    }),
    p("edi", "Edinburgh", "coast", "cly lvp yor", "cly nth nwg yor", { home: "england" }),
    p("eng", "English Channel", "sea", "", "bel bre iri lon mao nth pic wal", {
      aliases: ["Channel", "ech"],
    }),
    p("fin", "Finland", "coast", "nwy stp swe", "bot stp/sc swe"),
    p("gal", "Galicia", "land", "boh bud rum sil ukr vie war", ""),
    p("gas", "Gascony", "coast", "bre bur mar par spa", "bre mao spa/nc"),
    p("gre", "Greece", "coast", "alb bul ser", "aeg alb bul/sc ion", { centre: true }),
    p("hel", "Heligoland Bight", "sea", "", "den hol kie nth", {
      aliases: ["Helgoland Bight", "Heligoland", "hgb"],
    }),
    p("hol", "Holland", "coast", "bel kie ruh", "bel hel kie nth", {
      aliases: ["Netherlands"],
      centre: true,
    }),
    p("ion", "Ionian Sea", "sea", "", "adr aeg alb apu eas gre nap tun tys", {
      aliases: ["Ionian"],
    }),
    p("iri", "Irish Sea", "sea", "", "eng lvp mao nao wal", { aliases: ["Irish"] }),
    p("kie", "Kiel", "coast", "ber den hol mun ruh", "bal ber den hel hol", { home: "germany" }),
    p("lon", "London", "coast", "wal yor", "eng nth wal yor", { home: "england" }),
    p("lvn", "Livonia", "coast", "mos pru stp war", "bal bot pru stp/sc", { aliases: ["lvo"] }),
    p("lvp", "Liverpool", "coast", "cly edi wal yor", "cly iri nao wal", {
      aliases: ["lpl"],
      home: "england",
    }),
    p("lyo", "Gulf of Lyon", "sea", "", "mar pie spa/sc tus tys wes", {
      aliases: ["Gulf of Lyons", "Gulf of Lion", "gol", "Lyon"],
    }),
    p("mao", "Mid-Atlantic Ocean", "sea", "", "bre eng gas iri naf nao por spa/nc spa/sc wes", {
      aliases: ["Mid Atlantic", "Mid-Atlantic", "Mid Atlantic Ocean", "mid", "mat"],
    }),
    p("mar", "Marseilles", "coast", "bur gas pie spa", "lyo pie spa/sc", {
      aliases: ["Marseille"],
      home: "france",
    }),
    p("mos", "Moscow", "land", "lvn sev stp ukr war", "", { home: "russia" }),
    p("mun", "Munich", "land", "ber boh bur kie ruh sil tyr", "", { home: "germany" }),
    p("naf", "North Africa", "coast", "tun", "mao tun wes"),
    p("nao", "North Atlantic Ocean", "sea", "", "cly iri lvp mao nwg", {
      aliases: ["North Atlantic", "nat"],
    }),
    p("nap", "Naples", "coast", "apu rom", "apu ion rom tys", { home: "italy" }),
    p("nth", "North Sea", "sea", "", "bel den edi eng hel hol lon nwg nwy ska yor", {
      aliases: ["nts"],
    }),
    p("nwg", "Norwegian Sea", "sea", "", "bar cly edi nao nth nwy", {
      aliases: ["Norwegian", "nrg", "nwg"],
    }),
    p("nwy", "Norway", "coast", "fin stp swe", "bar nth nwg ska stp/nc swe", {
      aliases: ["nor"],
      centre: true,
    }),
    p("par", "Paris", "land", "bre bur gas pic", "", { home: "france" }),
    p("pic", "Picardy", "coast", "bel bre bur par", "bel bre eng"),
    p("pie", "Piedmont", "coast", "mar tus tyr ven", "lyo mar tus"),
    p("por", "Portugal", "coast", "spa", "mao spa/nc spa/sc", { centre: true }),
    p("pru", "Prussia", "coast", "ber lvn sil war", "bal ber lvn"),
    p("rom", "Rome", "coast", "apu nap tus ven", "nap tus tys", { home: "italy" }),
    p("ruh", "Ruhr", "land", "bel bur hol kie mun", ""),
    p("rum", "Rumania", "coast", "bud bul gal ser sev ukr", "bla bul/ec sev", {
      aliases: ["Romania"],
      centre: true,
    }),
    p("ser", "Serbia", "land", "alb bud bul gre rum tri", "", { centre: true }),
    p("sev", "Sevastopol", "coast", "arm mos rum ukr", "arm bla rum", {
      aliases: ["Sebastopol"],
      home: "russia",
    }),
    p("sil", "Silesia", "land", "ber boh gal mun pru war", ""),
    p("ska", "Skagerrak", "sea", "", "den nth nwy swe", { aliases: ["Skagerak"] }),
    p("smy", "Smyrna", "coast", "ank arm con syr", "aeg con eas syr", { home: "turkey" }),
    p(
      "spa",
      "Spain",
      "coast",
      "gas mar por",
      { nc: "gas mao por", sc: "lyo mao mar por wes" },
      { centre: true },
    ),
    p(
      "stp",
      "St. Petersburg",
      "coast",
      "fin lvn mos nwy",
      { nc: "bar nwy", sc: "bot fin lvn" },
      { aliases: ["St Petersburg", "Saint Petersburg"], home: "russia" },
    ),
    p("swe", "Sweden", "coast", "den fin nwy", "bal bot den fin nwy ska", { centre: true }),
    p("syr", "Syria", "coast", "arm smy", "eas smy"),
    p("tri", "Trieste", "coast", "alb bud ser tyr ven vie", "adr alb ven", { home: "austria" }),
    p("tun", "Tunis", "coast", "naf", "ion naf tys wes", { aliases: ["Tunisia"], centre: true }),
    p("tus", "Tuscany", "coast", "pie rom ven", "lyo pie rom tys"),
    p("tyr", "Tyrolia", "land", "boh mun pie tri ven vie", "", { aliases: ["Tyrol"] }),
    p("tys", "Tyrrhenian Sea", "sea", "", "ion lyo nap rom tun tus wes", {
      aliases: ["Tyrrhenian", "tyn"],
    }),
    p("ukr", "Ukraine", "land", "gal mos rum sev war", ""),
    p("ven", "Venice", "coast", "apu pie rom tri tus tyr", "adr apu tri", { home: "italy" }),
    p("vie", "Vienna", "land", "boh bud gal tri tyr", "", { home: "austria" }),
    p("wal", "Wales", "coast", "lon lvp yor", "eng iri lon lvp"),
    p("war", "Warsaw", "land", "gal lvn mos pru sil ukr", "", { home: "russia" }),
    p("wes", "Western Mediterranean", "sea", "", "lyo mao naf spa/sc tun tys", {
      aliases: ["Western Med", "Western Mediterranean Sea", "wme"],
    }),
    p("yor", "Yorkshire", "coast", "edi lon lvp wal", "edi lon nth", { aliases: ["York"] }),
  ],
};
