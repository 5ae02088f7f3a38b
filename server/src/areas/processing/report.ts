import {
  type ActivationRow,
  budgetPeriod,
  DAILY_MONTHS_KEPT,
  formatVolume,
  monthLabel,
  type ProcessingInfo,
  quarterMonths,
  type ReportQuarter,
} from '@paydesk/domain';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { Db } from '../../db/connect';
import { scopeTransaction } from '../../platform/scope';
import { activations, processingInfo } from './queries';

use([LineChart, BarChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

/**
 * The quarter report e-mailed from 'How to Export' (spec document 2 §2.3): the processing dashboard of a report
 * quarter (its figures through the quarter's last covered month) as an XLSX workbook, one sheet per list, and a
 * PDF of the dashboard, one page per section, with its charts drawn on the server (ECharts' SVG renderer into
 * pdfkit through svg-to-pdfkit).
 */
export interface QuarterReport {
  /** "2026-Q3" or "2026-Q4-to-October": the attachments' file names start with it. */
  name: string;
  workbook: Buffer;
  pdf: Buffer;
  /** The sections (PDF pages) in order. */
  sections: string[];
  totalVolume: number;
}

/** Whose figures a report holds: null for internal staff (everything), else one ISO's. */
export type ReportScope = { isoId: number; name: string } | null;

export interface QuarterFigures {
  quarter: ReportQuarter;
  scope: ReportScope;
  info: ProcessingInfo;
  activations: ActivationRow[];
}

/**
 * The dashboard of the quarter's last covered month, its lists cut to the quarter's months. An ISO's figures
 * are read under its row-level security, as its users' requests are (`db` must then be a transaction); the
 * role is reset afterwards, so the run can write the mail.
 */
export async function quarterFigures(
  db: Db,
  quarter: ReportQuarter,
  scope: ReportScope = null,
): Promise<QuarterFigures> {
  const dt = budgetPeriod(quarter.through).end;
  const isoId = scope?.isoId ?? null;
  await scopeTransaction(db, isoId);
  const full = await processingInfo(db, { dt, historic: false }, isoId, dt);
  const activated = await activations(db, dt);
  if (isoId !== null) await sql`reset role`.execute(db);
  const months = new Set(quarterMonths(quarter));
  const inQuarter = <T extends { mth: string }>(rows: T[]) => rows.filter((r) => months.has(r.mth));
  return {
    quarter,
    scope,
    info: {
      ...full,
      monthly: inQuarter(full.monthly),
      byProfile: inQuarter(full.byProfile),
      averages: inQuarter(full.averages),
      yearlyBudget: inQuarter(full.yearlyBudget),
    },
    activations: inQuarter(activated),
  };
}

type Column = { key: string; header: string; money?: boolean };
const SHEETS: { name: string; list: keyof ProcessingInfo | 'activations'; columns: Column[] }[] = [
  {
    name: 'Monthly by bank',
    list: 'monthly',
    columns: [
      { key: 'bank', header: 'bank' },
      { key: 'mth', header: 'mth' },
      { key: 'txamt', header: 'txamt', money: true },
      { key: 'txct', header: 'txct' },
    ],
  },
  {
    name: 'By profile',
    list: 'byProfile',
    columns: [
      { key: 'processor', header: 'processor' },
      { key: 'mth', header: 'mth' },
      { key: 'txamt', header: 'txamt', money: true },
    ],
  },
  {
    name: 'Daily',
    list: 'daily',
    columns: [
      { key: 'day', header: 'day' },
      { key: 'txamt', header: 'txamt', money: true },
      { key: 'benchamt', header: 'benchamt', money: true },
      { key: 'budgetamt', header: 'budgetamt', money: true },
      { key: 'benchamtbymerch', header: 'benchamtbymerch', money: true },
    ],
  },
  {
    name: 'Average daily',
    list: 'averages',
    columns: [
      { key: 'mth', header: 'mth' },
      { key: 'days', header: 'days' },
      { key: 'txamt', header: 'txamt', money: true },
      { key: 'avgamt', header: 'avgamt', money: true },
    ],
  },
  {
    name: 'Month budget',
    list: 'monthBudget',
    columns: [
      { key: 'start', header: 'start' },
      { key: 'end', header: 'end' },
      { key: 'budget', header: 'budget', money: true },
    ],
  },
  {
    name: 'Bank periods',
    list: 'bankPeriods',
    columns: [
      { key: 'bank', header: 'bank' },
      { key: 'start', header: 'start' },
      { key: 'end', header: 'end' },
    ],
  },
  {
    name: 'Budgets',
    list: 'yearlyBudget',
    columns: [
      { key: 'bank', header: 'bank' },
      { key: 'mth', header: 'mth' },
      { key: 'budget', header: 'budget', money: true },
    ],
  },
  {
    name: 'Activations',
    list: 'activations',
    columns: [
      { key: 'mth', header: 'mth' },
      { key: 'cnt', header: 'cnt' },
    ],
  },
];
export const REPORT_SHEETS = SHEETS.map((s) => s.name);

async function workbookOf(f: QuarterFigures): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'PayDesk';
  for (const s of SHEETS) {
    const sheet = book.addWorksheet(s.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = s.columns.map((c) => ({
      key: c.key,
      header: c.header,
      width: Math.max(12, c.header.length + 4),
      ...(c.money ? { style: { numFmt: '#,##0.00' } } : {}),
    }));
    sheet.getRow(1).font = { bold: true };
    const rows = (s.list === 'activations' ? f.activations : f.info[s.list]) as unknown as Record<
      string,
      unknown
    >[];
    for (const row of rows) sheet.addRow(s.columns.map((c) => row[c.key] as string | number));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const CHART_W = 760;
const CHART_H = 360;
const COLORS = ['#1c7ed6', '#f08c00', '#2f9e44', '#e03131', '#7048e8', '#0c8599'];
// svg-to-pdfkit ignores paint-order, so ECharts' white text outline would be drawn over the label: none.
const BAR_LABEL = { show: true, position: 'top', textBorderColor: 'none' } as const;
const shortMonth = (m: string) => monthLabel(m).replace(/^(\w{3})\w*/, '$1');

/** One chart as SVG text, drawn by ECharts without a browser. */
function chartSvg(option: Record<string, unknown>): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width: CHART_W, height: CHART_H });
  try {
    chart.setOption({
      animation: false,
      color: COLORS,
      textStyle: { fontFamily: 'Helvetica', fontSize: 12 },
      grid: { left: 70, right: 24, top: 40, bottom: 40 },
      legend: { top: 4 },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatVolume(v) } },
      ...option,
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

const groupSeries = <R extends { mth: string; txamt: number }>(
  rows: R[],
  keyOf: (r: R) => string,
  months: string[],
) =>
  [...new Set(rows.map(keyOf))].sort().map((key) => ({
    name: key,
    type: 'bar',
    stack: 'volume',
    data: months.map((m) =>
      rows.filter((r) => r.mth === m && keyOf(r) === key).reduce((s, r) => s + r.txamt, 0),
    ),
  }));

interface Section {
  title: string;
  svg: string;
  /** Lines of figures under the chart. */
  lines: string[];
}

function sectionsOf(f: QuarterFigures): Section[] {
  const { info, quarter } = f;
  const months = quarterMonths(quarter);
  const labels = months.map(shortMonth);
  const money = (n: number) =>
    `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const h = info.headline;
  const sumBy = <R extends { mth: string }>(rows: R[], m: string, v: (r: R) => number) =>
    rows.filter((r) => r.mth === m).reduce((s, r) => s + v(r), 0);
  // Budgets are the processor's own targets: an ISO's report has none.
  const budgets = f.scope === null;
  const projection =
    h.basis === 'complete'
      ? 'The month is complete.'
      : h.basis === 'previousMonth'
        ? "Projected from last month's average day (the first two days of a month)."
        : `Projected from ${h.elapsedDays} of ${h.periodDays} days.`;
  return [
    {
      title: budgets
        ? `Daily volume and budget, ${monthLabel(h.month)}`
        : `Daily volume, ${monthLabel(h.month)}`,
      svg: chartSvg({
        // Days older than the daily window are kept per month only: the chart says so.
        ...(info.daily.length === 0
          ? {
              title: {
                text: `Daily figures are kept for the last ${DAILY_MONTHS_KEPT} months; this month has monthly figures only`,
                left: 'center',
                top: 'middle',
                textStyle: { fontSize: 14, fontWeight: 'normal', color: '#868e96' },
              },
            }
          : {}),
        xAxis: { type: 'category', data: info.daily.map((d) => d.day.slice(8)) },
        series: [
          {
            name: 'Volume',
            type: 'line',
            color: COLORS[0],
            data: info.daily.map((d) => d.txamt),
            symbol: 'none',
            lineStyle: { width: 2 },
          },
          ...(budgets
            ? [
                {
                  name: 'Budget',
                  type: 'line',
                  color: COLORS[1],
                  data: info.daily.map((d) => d.budgetamt),
                  symbol: 'none',
                },
              ]
            : []),
          {
            name: 'Last year',
            type: 'line',
            color: COLORS[2],
            data: info.daily.map((d) => d.benchamt),
            symbol: 'none',
            lineStyle: { type: 'dashed' },
          },
          {
            name: 'Last year, same merchant count',
            type: 'line',
            color: COLORS[3],
            data: info.daily.map((d) => d.benchamtbymerch),
            symbol: 'none',
            lineStyle: { type: 'dotted' },
          },
        ],
      }),
      lines: [
        `Month to date ${money(h.monthToDate)} (${formatVolume(h.monthToDate)}) through ${h.asOf ?? 'no figures yet'}; trending ${money(h.trending)} (${formatVolume(h.trending)}).`,
        budgets
          ? `Budget ${money(h.budget)}: ${h.budgetPercent === null ? 'no budget set' : `${h.budgetPercent}% of budget`}. ${projection}`
          : projection,
      ],
    },
    {
      title: 'Monthly volume by bank',
      svg: chartSvg({
        xAxis: { type: 'category', data: labels },
        series: groupSeries(info.monthly, (r) => r.bank, months),
      }),
      lines: months.map(
        (m) =>
          `${monthLabel(m)}: ${money(sumBy(info.monthly, m, (r) => r.txamt))} in ${sumBy(info.monthly, m, (r) => r.txct).toLocaleString('en-US')} transactions${budgets ? `; budget ${money(sumBy(info.yearlyBudget, m, (r) => r.budget))}` : ''}`,
      ),
    },
    {
      title: 'Monthly average daily volume',
      svg: chartSvg({
        legend: { show: false },
        xAxis: { type: 'category', data: info.averages.map((a) => shortMonth(a.mth)) },
        series: [
          {
            name: 'Average day',
            type: 'bar',
            data: info.averages.map((a) => a.avgamt),
            label: { ...BAR_LABEL, formatter: (p: { value: number }) => formatVolume(p.value) },
          },
        ],
      }),
      lines: info.averages.map((a) => `${monthLabel(a.mth)}: ${money(a.avgamt)} a day over ${a.days} days`),
    },
    {
      title: 'Monthly volume by profile',
      svg: chartSvg({
        xAxis: { type: 'category', data: labels },
        series: groupSeries(info.byProfile, (r) => r.processor, months),
      }),
      lines: [...new Set(info.byProfile.map((r) => r.processor))]
        .sort()
        .map(
          (p) =>
            `${p}: ${money(info.byProfile.filter((r) => r.processor === p).reduce((s, r) => s + r.txamt, 0))}`,
        ),
    },
    {
      title: 'Activations per month',
      svg: chartSvg({
        legend: { show: false },
        yAxis: { type: 'value', minInterval: 1 },
        xAxis: { type: 'category', data: f.activations.map((a) => shortMonth(a.mth)) },
        series: [
          {
            name: 'Activations',
            type: 'bar',
            data: f.activations.map((a) => a.cnt),
            label: BAR_LABEL,
          },
        ],
      }),
      lines: f.activations.map((a) => `${monthLabel(a.mth)}: ${a.cnt} merchants activated`),
    },
  ];
}

function pdfOf(f: QuarterFigures, sections: Section[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 40,
    autoFirstPage: false,
    info: { Title: `Processing report ${f.quarter.label}`, Author: 'PayDesk' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', (err) => reject(err));
  });
  for (const [i, s] of sections.entries()) {
    doc.addPage();
    doc.font('Helvetica').fontSize(9).fillColor('#868e96');
    const whose = f.scope ? `${f.scope.name}  -  ` : '';
    doc.text(
      `PayDesk processing report ${f.quarter.label}  -  ${whose}page ${i + 1} of ${sections.length}`,
      40,
      24,
    );
    doc.font('Helvetica-Bold').fontSize(18).fillColor('#212529').text(s.title, 40, 44);
    SVGtoPDF(doc, s.svg, 40, 76, { width: CHART_W, height: CHART_H, assumePt: true });
    doc.font('Helvetica').fontSize(10).fillColor('#212529');
    let y = 76 + CHART_H + 12;
    for (const line of s.lines.slice(0, 8)) {
      doc.text(line, 40, y, { width: CHART_W });
      y = doc.y + 2;
    }
  }
  doc.end();
  return done;
}

export async function buildQuarterReport(
  db: Db,
  quarter: ReportQuarter,
  scope: ReportScope = null,
): Promise<QuarterReport> {
  const figures = await quarterFigures(db, quarter, scope);
  const sections = sectionsOf(figures);
  const through = monthLabel(quarter.through).split(' ')[0];
  return {
    name: quarter.complete ? `${quarter.yr}-Q${quarter.qr}` : `${quarter.yr}-Q${quarter.qr}-to-${through}`,
    workbook: await workbookOf(figures),
    pdf: await pdfOf(figures, sections),
    sections: sections.map((s) => s.title),
    totalVolume: figures.info.monthly.reduce((s, r) => s + r.txamt, 0),
  };
}
