/**
 * The parts of pdfkit 0.20 and svg-to-pdfkit 0.1 the processing report uses; neither ships types, and STACK.md
 * pins no @types package for them.
 */
declare module 'pdfkit' {
  interface PDFDocumentOptions {
    size?: string | [number, number];
    layout?: 'portrait' | 'landscape';
    margin?: number;
    autoFirstPage?: boolean;
    bufferPages?: boolean;
    info?: { Title?: string; Author?: string; Subject?: string; CreationDate?: Date };
  }
  interface TextOptions {
    width?: number;
    align?: 'left' | 'center' | 'right' | 'justify';
    continued?: boolean;
    lineBreak?: boolean;
  }
  class PDFDocument {
    constructor(options?: PDFDocumentOptions);
    page: { width: number; height: number };
    y: number;
    addPage(options?: PDFDocumentOptions): this;
    font(name: string): this;
    fontSize(size: number): this;
    fillColor(color: string): this;
    text(text: string, x?: number, y?: number, options?: TextOptions): this;
    moveDown(lines?: number): this;
    rect(x: number, y: number, w: number, h: number): this;
    fill(color?: string): this;
    end(): void;
    on(event: 'data', listener: (chunk: Buffer) => void): this;
    on(event: 'end' | 'error', listener: (err?: Error) => void): this;
  }
  export default PDFDocument;
}

declare module 'svg-to-pdfkit' {
  import type PDFDocument from 'pdfkit';
  export default function SVGtoPDF(
    doc: PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: { width?: number; height?: number; assumePt?: boolean },
  ): void;
}
