/* The unicode-confusables package ships no types (docs/architecture.md: src/judge/names.ts). */
declare module "unicode-confusables" {
  /** Each character replaced by the one it is confusable with (Unicode's confusables.txt). */
  export function rectifyConfusion(text: string): string;
  export function isConfusing(text: string): boolean;
}
