import { Loader, Paper, Stepper } from '@mantine/core';
import { leadsEndpoints } from '@paydesk/domain/leads/contracts';
import { canOpenStep, LEAD_STEPS, type LeadStep } from '@paydesk/domain/leads/steps';
import { IconCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { ChecksStep } from './ChecksStep';
import { DecisionStep } from './DecisionStep';
import { LeadForm } from './LeadForm';
import { SendStep } from './SendStep';

const isDone = (step: LeadStep, index: number) =>
  index < step.current_step || (index === step.current_step && step.completed);

function stepDescription(step: LeadStep, index: number): string {
  if (isDone(step, index)) return 'Done';
  return index > step.current_step ? 'Not reached' : 'Current step';
}

const DONE_ICON = <IconCheck size={16} />;

/**
 * One lead's stepper (spec §2.4, §4). The server keeps the current step and moves it by its rules; the RM may
 * look back at any step up to the current one, which changes nothing.
 */
export function LeadDetail({ leadId }: { leadId: string }) {
  const queryClient = useQueryClient();
  const step = useQuery({
    queryKey: leadsKeys.step(leadId),
    queryFn: () => call(leadsEndpoints.getCurrentStep, { lead_id: leadId }),
  });
  const [viewed, setViewed] = useState<number | null>(null);
  const refetchStep = step.refetch;
  const refreshStep = useCallback(() => void refetchStep(), [refetchStep]);

  if (step.error)
    return <FormAlert kind="error">{errorMessage(step.error, 'This lead could not be loaded.')}</FormAlert>;
  if (!step.data) return <Loader size="sm" aria-label="Loading the lead" />;
  const current = step.data;
  const shown = viewed !== null && canOpenStep(current, viewed) ? viewed : current.current_step;

  /** The server moved the lead: show its new current step. */
  const moved = (next: LeadStep & { lead_id: string }) => {
    queryClient.setQueryData(leadsKeys.step(leadId), next);
    setViewed(next.current_step);
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <Stepper
        active={shown}
        onStepClick={(index) => canOpenStep(current, index) && setViewed(index)}
        size="sm"
      >
        {LEAD_STEPS.map((label, index) => (
          <Stepper.Step
            key={label}
            label={label}
            description={stepDescription(current, index)}
            // The stepper marks only the steps before the one shown; a done step looked past keeps its tick.
            icon={isDone(current, index) ? DONE_ICON : undefined}
            progressIcon={isDone(current, index) ? DONE_ICON : undefined}
            allowStepSelect={canOpenStep(current, index)}
            // A step past the current one is out of reach: disabled, for the keyboard and screen readers too.
            disabled={!canOpenStep(current, index)}
          >
            {index === 0 && <LeadForm leadId={leadId} onSaved={moved} />}
            {index === 1 && (
              <ChecksStep
                leadId={leadId}
                step={current}
                onMoved={moved}
                onView={setViewed}
                onRefreshStep={refreshStep}
              />
            )}
            {index === 2 && <SendStep leadId={leadId} onSent={moved} />}
            {index === 3 && <DecisionStep leadId={leadId} />}
          </Stepper.Step>
        ))}
      </Stepper>
    </Paper>
  );
}
