// The types of whole-file.mjs (files written whole, and the hash naming what is kept).

export declare const sha256: (data: string | Buffer) => string;
export declare function writeWhole(file: string, data: string): void;
