// pdf.js ships its worker bundle without type declarations; only its handler is needed, to run
// the worker in this thread instead of loading one.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
