// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell code, where ${...} is the shell's.
import type { Command, Option } from "commander";
import { PROFILES } from "../engine/rules.ts";
import { gameIds, variantIds } from "../variants/registry.ts";
import { allCommands, type Completion, commandPath, takesPath, valuesOf } from "./define.ts";

/*
 * `entente completion bash|zsh`: a completion script made from the command definitions
 * (program.ts), so that a new command or option completes without touching this file. The
 * script walks the words typed so far to the command they name, then offers its
 * subcommands, its options, an option's values (variant ids, profiles, choices) or files.
 */

interface Entry {
  /** The words after `entente` that name the command ("" for entente itself). */
  path: string;
  subcommands: { name: string; about: string }[];
  options: { flag: string; about: string }[];
  /** Options followed by a value: the words it completes to, or "files". */
  values: { flag: string; words: readonly string[] | "files" | "none" }[];
  /** Whether positional arguments are files. */
  files: boolean;
}

/** What a named set of words holds: the variant ids and game families, or the profiles. */
const sets = (set: Completion): readonly string[] =>
  set === "variants" ? [...variantIds(), ...gameIds()] : Object.keys(PROFILES);

function flagsOf(o: Option): string[] {
  return [o.short, o.long].filter((f): f is string => typeof f === "string");
}

function entries(program: Command): Entry[] {
  return allCommands(program).map((c) => {
    const help = c.createHelp();
    const visible = help.visibleOptions(c);
    return {
      path: commandPath(c).split(" ").slice(1).join(" "),
      // The words that may come next: subcommands, or the first argument's known values.
      subcommands: [
        ...help
          .visibleCommands(c)
          .map((s) => ({ name: s.name(), about: s.summary() || s.description() })),
        ...c.registeredArguments
          .slice(0, 1)
          .flatMap((a) =>
            (valuesOf(a, sets) ?? []).map((name) => ({ name, about: a.description })),
          ),
      ],
      options: visible.flatMap((o) => flagsOf(o).map((flag) => ({ flag, about: o.description }))),
      values: c.options
        .filter((o) => o.required || o.optional)
        .flatMap((o) => {
          const words = valuesOf(o, sets);
          const kind = words ?? (takesPath(o) ? "files" : "none");
          return flagsOf(o).map((flag) => ({ flag, words: kind }));
        }),
      files: c.registeredArguments.some((a) => takesPath(a)),
    };
  });
}

const shellWord = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** A zsh `_describe` item: `name:about`, colons in the name escaped. */
const describeItem = (name: string, about: string): string =>
  shellWord(`${name.replaceAll(":", "\\:")}:${about}`);

/**
 * What a shell's script says its own way; the walk and the two `case`s (an option's values,
 * then the command's words) are the same in both.
 */
interface Dialect {
  /** The comment, the function's start and its walk over the words typed, up to `w=`. */
  head: string[];
  /** A `case` item's pattern. */
  pattern(key: string): string;
  /** What completes an option's value. */
  value(words: Entry["values"][number]["words"]): string;
  /** The locals of the command's words. */
  locals: string[];
  /** Subcommands' or options' words assigned to `subs` or `opts`. */
  list(items: { name: string; about: string }[]): string;
  /** The offer made from `subs`, `opts` and `files`, and the function's end. */
  tail: string[];
}

const dialects: Record<"bash" | "zsh", Dialect> = {
  bash: {
    head: [
      "# bash completion for entente, made by `entente completion bash` from its definitions.",
      "# Use: source <(entente completion bash)   (or save it in /etc/bash_completion.d/entente)",
      "_entente() {",
      '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
      '  local cmdpath="" i w',
      "  for ((i = 1; i < COMP_CWORD; i++)); do",
      '    w="${COMP_WORDS[i]}"',
    ],
    pattern: (key) => `${key})`,
    value: (words) =>
      words === "files"
        ? 'COMPREPLY=($(compgen -f -- "$cur"))'
        : words === "none"
          ? "COMPREPLY=()"
          : `COMPREPLY=($(compgen -W ${shellWord(words.join(" "))} -- "$cur"))`,
    locals: ['  local subs="" opts="" files=0'],
    list: (items) => shellWord(items.map((i) => i.name).join(" ")),
    tail: [
      '  if [[ "$cur" == -* ]]; then',
      '    COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
      "  else",
      '    COMPREPLY=($(compgen -W "$subs" -- "$cur"))',
      '    if [[ $files == 1 ]]; then COMPREPLY+=($(compgen -f -- "$cur")); fi',
      "  fi",
      "}",
      "complete -o filenames -F _entente entente",
    ],
  },
  zsh: {
    head: [
      "#compdef entente",
      "# zsh completion for entente, made by `entente completion zsh` from its definitions.",
      "# Use: entente completion zsh > ~/.zfunc/_entente, with fpath+=(~/.zfunc) before compinit.",
      "_entente() {",
      "  local cmdpath='' w i",
      "  local cur=${words[CURRENT]} prev=${words[CURRENT-1]}",
      "  for ((i = 2; i < CURRENT; i++)); do",
      "    w=${words[i]}",
    ],
    pattern: (key) => `(${key})`,
    value: (words) =>
      words === "files"
        ? "_files"
        : words === "none"
          ? "_message 'a value'"
          : `compadd -- ${words.map(shellWord).join(" ")}`,
    locals: ["  local -a subs opts", "  local files=0"],
    list: (items) => `(${items.map((i) => describeItem(i.name, i.about)).join(" ")})`,
    tail: [
      "  if [[ $cur == -* ]]; then",
      "    _describe 'option' opts",
      "  else",
      "    (( ${#subs} )) && _describe 'command' subs",
      "    (( files )) && _files",
      "  fi",
      "}",
      'if [[ "${funcstack[1]}" == _entente ]]; then _entente "$@"; else compdef _entente entente; fi',
    ],
  },
};

function script(program: Command, d: Dialect): string {
  const all = entries(program);
  const known = all.filter((e) => e.path !== "").map((e) => `" ${e.path}"`);
  const lines = [
    ...d.head,
    '    case "$cmdpath $w" in',
    `      ${d.pattern(known.join("|"))} cmdpath="$cmdpath $w" ;;`,
    "    esac",
    "  done",
    '  case "$cmdpath:$prev" in',
  ];
  for (const e of all) {
    for (const v of e.values) {
      const key = `" ${e.path}:${v.flag}"`.replace('" :', '":');
      lines.push(`    ${d.pattern(key)} ${d.value(v.words)}; return ;;`);
    }
  }
  lines.push("  esac", ...d.locals, '  case "$cmdpath" in');
  for (const e of all) {
    const key = e.path === "" ? '""' : `" ${e.path}"`;
    const opts = e.options.map((o) => ({ name: o.flag, about: o.about }));
    lines.push(
      `    ${d.pattern(key)} subs=${d.list(e.subcommands)}; opts=${d.list(opts)}; files=${e.files ? 1 : 0} ;;`,
    );
  }
  lines.push("  esac", ...d.tail, "");
  return lines.join("\n");
}

export function completionScript(program: Command, shell: "bash" | "zsh"): string {
  return script(program, dialects[shell]);
}
