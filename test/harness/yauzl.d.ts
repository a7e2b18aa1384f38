// The part of yauzl (a dependency of @vscode/vsce) that packageCheck.mjs uses.
declare module 'yauzl' {
  interface Entry { fileName: string; uncompressedSize: number }
  interface ZipFile {
    on(event: 'entry', listener: (entry: Entry) => void): this;
    on(event: 'end', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    readEntry(): void;
  }
  function open(path: string, options: { lazyEntries: boolean }, callback: (err: Error | null, zip?: ZipFile) => void): void;
  const yauzl: { open: typeof open };
  export default yauzl;
}
