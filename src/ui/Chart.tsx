import { formatAxisDay, formatCalendarDay } from './format';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css' with { type: 'text' };

// A daily line chart on uPlot (~24 KB gzip). Import it only through React.lazy from pages that
// chart something, so neither uPlot nor its stylesheet reaches the console's first load.

export type ChartPoint = { date: string; count: number };
export type ChartSeries = { label: string; color: string; points: readonly ChartPoint[] };

type ChartProps = {
  /** names the chart for assistive tech; the figure's caption */
  title: string;
  series: readonly ChartSeries[];
  height?: number;
  /** formats values on the axis and in the legend */
  format?: (value: number) => string;
  /** the caption is read out but not shown, when a heading above already says it */
  hideTitle?: boolean;
};

let cssInjected = false;
function injectCss() {
  if (cssInjected || typeof document === 'undefined') return;
  const style = document.createElement('style');
  style.dataset.uplot = '';
  style.textContent = uplotCss;
  document.head.appendChild(style);
  cssInjected = true;
}

const toSeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
// the x values are UTC midnights of calendar days: back to the day, then the console's day style
const isoDayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const dayOf = (seconds: number | null) => (seconds == null ? '—' : formatCalendarDay(isoDayOf(seconds)));
// ticks a whole number of days apart (never uPlot's 12 h ones, which would name a day twice)
const DAY_S = 86_400;
const DAY_TICKS = [1, 2, 3, 7, 14, 28, 56, 91, 182, 364].map((n) => n * DAY_S);
const WHOLE_STEPS = Array.from({ length: 10 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

export default function Chart({
  title,
  series,
  height = 220,
  format = (v) => String(Math.round(v * 100) / 100),
  hideTitle = false,
}: ChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    injectCss();
    const xs = (series[0]?.points ?? []).map((p) => toSeconds(p.date));
    const data: uPlot.AlignedData = [xs, ...series.map((s) => s.points.map((p) => p.count))];
    // Away from the cursor the legend shows the latest day's figures rather than uPlot's '--'.
    const latest = xs.length - 1;
    const at = (values: ArrayLike<number | null | undefined>, idx: number | null) => values[idx ?? latest] ?? null;
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        // days are UTC calendar days: draw them as such whatever the viewer's zone
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max * 1.1)] } },
        axes: [
          { incrs: DAY_TICKS, space: 56, values: (_u, splits) => splits.map((s) => formatAxisDay(isoDayOf(s))) },
          // every figure charted is a whole number (counts, credits, minor units): whole steps only, never "0.25"
          { incrs: WHOLE_STEPS, values: (_u, vals) => vals.map(format), size: 56 },
        ],
        series: [
          { label: 'Date', value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => dayOf(at(xs, idx)) },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            fill: `${s.color}1a`,
            value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => {
              const v = at(data[i + 1]!, idx);
              return v == null ? '—' : format(v);
            },
          })),
        ],
        legend: { show: true },
      },
      data,
      el,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [series, height, format]);

  const last = series.map((s) => `${s.label}: ${format(s.points.at(-1)?.count ?? 0)}`).join(', ');
  return (
    <figure className="chart">
      <figcaption className={hideTitle ? 'sr-only' : 'chart-title'}>{title}</figcaption>
      <div ref={box} className="chart-canvas" role="img" aria-label={`${title}. Latest ${last}.`} />
    </figure>
  );
}
