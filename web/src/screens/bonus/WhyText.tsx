import { Text, Tooltip } from '@mantine/core';

/** Why a row was computed (docs/bonus.md): one line in the table, the whole sentence on hover. */
export function WhyText({ text }: { text: string }) {
  return (
    <Tooltip label={text} withArrow multiline maw={420} openDelay={200}>
      <Text fz="xs" c="dimmed" truncate="end" maw={340}>
        {text}
      </Text>
    </Tooltip>
  );
}
