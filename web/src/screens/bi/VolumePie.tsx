import { useMemo } from 'react';
import { type ChartOption, EChart } from '../../components/charts';

/**
 * Volume against chargebacks. Chargebacks are usually well under 1% of volume, so the slices carry their share
 * with two decimals in the legend, where a sliver's label would not fit.
 */
export function VolumePie({
  volume,
  chargebacks,
  money,
  height,
}: {
  volume: number;
  chargebacks: number;
  money: (value: number) => string;
  height: number;
}) {
  const option = useMemo<ChartOption>(() => {
    const total = volume + chargebacks;
    const share = (v: number) => (total === 0 ? '0.00' : ((v / total) * 100).toFixed(2));
    const slices = [
      { name: 'Volume', value: volume, color: '#1c7ed6' },
      { name: 'Chargebacks', value: chargebacks, color: '#e03131' },
    ];
    return {
      animationDuration: 400,
      tooltip: { trigger: 'item', valueFormatter: (v: unknown) => money(Number(v)) },
      legend: {
        bottom: 0,
        left: 'center',
        itemWidth: 12,
        itemHeight: 10,
        formatter: (name: string) => `${name} ${share(slices.find((s) => s.name === name)?.value ?? 0)}%`,
      },
      series: [
        {
          type: 'pie',
          name: 'Volume and chargebacks',
          radius: ['42%', '68%'],
          center: ['50%', '44%'],
          label: { show: false },
          itemStyle: { borderColor: '#fff', borderWidth: 2 },
          data: slices.map((s) => ({ name: s.name, value: s.value, itemStyle: { color: s.color } })),
        },
      ],
    };
  }, [volume, chargebacks, money]);
  return <EChart option={option} height={height} label="Volume and chargebacks" />;
}
