import type { Plugin } from 'chart.js';

/** A normal range drawn behind the lines: a faint stripe in its vital's colour, edges dashed. */
export interface NormalBand {
  axis: 'y' | 'y1' | 'y2';
  min: number;
  max: number;
  color: string;
}

/**
 * Draws the normal bands under the data (before the datasets), clipped to the plot area. Each
 * stripe is the vital's colour at 8 % opacity, so where two overlap both still show.
 */
export function normalBandsPlugin(bandsNow: () => readonly NormalBand[]): Plugin<'line'> {
  return {
    id: 'normalBands',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      ctx.save();
      for (const band of bandsNow()) {
        const scale = chart.scales[band.axis];
        if (!scale) continue;
        const top = Math.max(area.top, Math.min(area.bottom, scale.getPixelForValue(band.max)));
        const bottom = Math.max(area.top, Math.min(area.bottom, scale.getPixelForValue(band.min)));
        if (bottom - top < 1) continue;
        ctx.fillStyle = `${band.color}14`;
        ctx.fillRect(area.left, top, area.right - area.left, bottom - top);
        ctx.strokeStyle = `${band.color}99`;
        ctx.lineWidth = 1;
        ctx.setLineDash([4, 4]);
        for (const y of [top, bottom]) {
          if (y <= area.top || y >= area.bottom) continue;
          ctx.beginPath();
          ctx.moveTo(area.left, y);
          ctx.lineTo(area.right, y);
          ctx.stroke();
        }
      }
      ctx.restore();
    },
  };
}
