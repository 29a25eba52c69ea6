import assert from 'node:assert/strict';
import { ApiError } from '../../../src/errors/catalogue.js';
import { DEFAULT_PDF_LIMITS, PdfReader, pdfToText } from '../../../src/documents/ingest/pdf.js';
import { minimalPdf } from './minimalPdf.js';

describe('pdfToText', function () {
  // The first PDF starts the reader's worker thread (pdf.js loads there): slow on a loaded machine.
  this.timeout(180_000);

  it('reads the text, page count and title of a PDF', async () => {
    const pdf = minimalPdf({
      title: 'Quarterly Report',
      pages: [['Revenue grew (a lot).', 'Costs fell.'], ['Second page text.']],
    });
    const result = await pdfToText(pdf);
    assert.equal(result.pages, 2);
    assert.equal(result.title, 'Quarterly Report');
    assert.equal(result.text, 'Revenue grew (a lot).\nCosts fell.\n\nSecond page text.');
  });

  it('gives a null title when the PDF has none', async () => {
    const result = await pdfToText(minimalPdf({ pages: [['Untitled text.']] }));
    assert.equal(result.title, null);
    assert.equal(result.text, 'Untitled text.');
  });

  it('refuses bytes that are not a readable PDF as an invalid request naming the field', async () => {
    await assert.rejects(pdfToText(Buffer.from('%PDF-1.4\nthis is not really a pdf'), '/body/url'), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 'invalid_request');
      assert.equal(e.details.fields?.[0]?.field, '/body/url');
      return true;
    });
  });

  it('a PDF that takes longer than the time limit is refused naming the field, and its worker is stopped', async () => {
    const pdf = minimalPdf({ title: 'Slow', pages: [['Some text.']] });
    await assert.rejects(pdfToText(pdf, '/body/file', { timeLimitMs: 1 }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 'invalid_request');
      assert.equal(e.details.fields?.[0]?.field, '/body/file');
      assert.match(e.details.fields?.[0]?.reason ?? '', /took longer than/);
      return true;
    });
    // The next PDF gets a fresh worker and reads normally.
    assert.equal((await pdfToText(pdf)).text, 'Some text.');
  });
});

describe('PdfReader limits', function () {
  this.timeout(180_000);

  it('refuses a PDF with more pages than the limit before reading them, naming the field', async () => {
    const reader = new PdfReader({ ...DEFAULT_PDF_LIMITS, maxPages: 2 });
    const pdf = minimalPdf({ pages: [['one'], ['two'], ['three']] });
    await assert.rejects(reader.read(pdf, '/body/url', 'p1'), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 'invalid_request');
      assert.deepEqual(e.details.fields, [{ field: '/body/url', reason: 'the PDF has 3 pages; at most 2 are read' }]);
      return true;
    });
    assert.equal((await reader.read(minimalPdf({ pages: [['one'], ['two']] }), '/body/file', 'p1')).pages, 2);
  });

  it('refuses a PDF that needs more memory than a worker may use, and the next PDF still reads', async () => {
    const reader = new PdfReader({ ...DEFAULT_PDF_LIMITS, workers: 1, memoryMb: 128 });
    const lines = Array.from({ length: 400_000 }, (_, i) => `line ${i} with some words to fill the text layer`);
    await assert.rejects(reader.read(minimalPdf({ pages: [lines] }), '/body/file', 'p1'), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 'invalid_request');
      assert.match(e.details.fields?.[0]?.reason ?? '', /needs more than 128 MiB/);
      return true;
    });
    assert.equal((await reader.read(minimalPdf({ pages: [['small']] }), '/body/file', 'p1')).text, 'small');
  });

  it("serves waiting PDFs project by project: one project's backlog does not hold up another's", async () => {
    const reader = new PdfReader({ ...DEFAULT_PDF_LIMITS, workers: 1 });
    const finished: string[] = [];
    const pdf = minimalPdf({ pages: [['text']] });
    const read = (tenant: string, name: string): Promise<void> =>
      reader.read(pdf, '/body/file', tenant).then(() => {
        finished.push(name);
      });
    const all = [read('a', 'a1'), read('a', 'a2'), read('a', 'a3'), read('a', 'a4'), read('a', 'a5'), read('b', 'b1')];
    assert.equal(reader.queued, 5); // a1 went to the worker at once
    await Promise.all(all);
    // b1 waits for at most one more of a's PDFs, not for a's whole backlog.
    assert.ok(finished.indexOf('b1') <= 2, finished.join(','));
    assert.equal(finished.length, 6);
  });
});
