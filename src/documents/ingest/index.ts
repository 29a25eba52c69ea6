// The document ingestion pipeline, without a database: fetch a URL safely, read its text, split
// it into chunks. Routes and activities import from here, not from the modules behind it.
export { fetchUrl, type FetchUrlOptions, type FetchedDocument } from './fetchUrl.js';
export { htmlToText, type HtmlText } from './html.js';
export { pdfToText, type PdfLimits, type PdfOptions, type PdfText } from './pdf.js';
export {
  extractText,
  sniffMimeType,
  markdownTitle,
  type ExtractInput,
  type ExtractedText,
  type SupportedMimeType,
} from './extractText.js';
export { chunkText, type Chunk, type ChunkOptions } from './chunk.js';
export { countTokens, TOKEN_ENCODING } from './tokenCount.js';
export { isPrivateAddress } from './privateAddress.js';
export { type Resolver, type ResolvedAddress } from './target.js';
