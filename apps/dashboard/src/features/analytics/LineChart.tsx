import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a {@link LineChart}. */
export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

/**
 * A line chart with points over categories (months, retention horizons), drawn by uPlot on a
 * canvas that follows its container's width (docs/decisions/analytics-charts.md). The canvas is
 * hidden from screen readers: every chart sits beside its data table, which carries the numbers.
 * @param labels the x categories, in order
 * @param formatValue how the y axis writes a value (dollars, percent)
 */
export function LineChart({
  labels,
  series,
  formatValue,
  height = 260,
}: {
  labels: string[];
  series: ChartSeries[];
  formatValue: (value: number) => string;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(element.clientWidth, 240);
    const chart = new uPlot(
      {
        width: width(),
        height,
        legend: { live: false },
        // Room on the right for the last x label ("180 days"), which is centred on the plot's edge.
        padding: [12, 36, 0, 0],
        scales: {
          x: { time: false },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          {
            // As many labels as fit (one per 64 CSS pixels of plot), evenly skipped.
            values: (_u, splits) => {
              const every = Math.ceil(
                labels.length / Math.max(1, Math.floor((element.clientWidth - 70) / 64)),
              );
              return splits.map((x) => (x % every === 0 ? (labels[x] ?? '') : ''));
            },
            splits: () => labels.map((_label, index) => index),
          },
          { values: (_u, splits) => splits.map(formatValue), size: 60 },
        ],
        series: [
          {},
          ...series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            points: { show: true, size: 7, fill: line.color },
          })),
        ],
      },
      [labels.map((_label, index) => index), ...series.map((line) => line.values)],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [labels, series, formatValue, height]);
  return <div className="dash-chart" ref={box} aria-hidden="true" />;
}
