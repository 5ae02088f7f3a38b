import { Text, Tooltip } from '@mantine/core';

/** Why a row was computed (docs/bonus.md), two lines in the table and the whole sentence on hover. */
export function WhyText({ text }: { text: string }) {
  return (
    <Tooltip label={text} withArrow multiline maw={420} openDelay={200}>
      <Text fz="xs" c="dimmed" lineClamp={2}>
        {text}
      </Text>
    </Tooltip>
  );
}
