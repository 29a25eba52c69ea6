import assert from 'node:assert/strict';
import { ApiError } from '../../../src/errors/catalogue.js';
import { pdfToText } from '../../../src/documents/ingest/pdf.js';
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
