/**
 * The lead's stepper (spec document 3 §2.4, §3 "Lead step", §4): steps 0 to 3, the current one and whether it is
 * completed. The client asks to move (AddCurrentStep); the server decides with these rules from what has
 * happened, so a step cannot be marked done by asking.
 */

export const LEAD_STEPS = ['Enter Information', 'Run Validations', 'Send for Approval', 'Decision'] as const;
export type LeadStepIndex = 0 | 1 | 2 | 3;
export const STEP = { enterInformation: 0, runValidations: 1, sendForApproval: 2, decision: 3 } as const;

export interface LeadStep {
  current_step: LeadStepIndex;
  completed: boolean;
}

/** Where a lead nobody has touched stands. */
export const FIRST_STEP: LeadStep = { current_step: 0, completed: false };

/** What the server knows of the lead when a step change is asked for. */
export interface LeadFacts {
  /** The form has been saved (and so passed the form's rules). */
  formSaved: boolean;
  /** All four automatic checks have finished (allAutomaticChecksFinished). */
  checksFinished: boolean;
  /** An approval request has been sent to an underwriter. */
  sentForApproval: boolean;
  /** The underwriter has decided (approved or rejected). */
  decided: boolean;
}

/** Spec §2.4: a step can be revisited only up to the current step. */
export function canOpenStep(current: LeadStep, step: number): boolean {
  return Number.isInteger(step) && step >= 0 && step <= current.current_step;
}

/**
 * Whether the lead may move to `wanted`, or why not. The rules (spec §4):
 * - step 1 not completed: after the form is saved ("saving with validations");
 * - step 1 completed: only when all four automatic checks finished;
 * - step 2 (not completed): "send for approval" moves there once step 1 is completed;
 * - step 2 completed / step 3: only by sending to an underwriter (SendForApproval), never by asking;
 * - after the decision nothing moves.
 * Going back is never stored: revisiting an earlier step is the client's view, the current step stays.
 */
export function stepChangeProblem(current: LeadStep, wanted: LeadStep, facts: LeadFacts): string | null {
  if (facts.decided) return 'The underwriter has decided on this lead; its steps can no longer change';
  if (wanted.current_step < current.current_step)
    return 'A lead does not go back a step; earlier steps can be opened without changing the current one';
  switch (wanted.current_step) {
    case 0:
      return wanted.completed ? 'Save the form to complete Enter Information' : null;
    case 1:
      if (!facts.formSaved) return 'Save the lead form before running validations';
      if (wanted.completed && !facts.checksFinished)
        return 'Run Validations is complete only when DataX, Match, TinCheck and Giact have finished';
      return null;
    case 2:
      if (!facts.checksFinished) return 'All four automatic checks must finish before sending for approval';
      if (wanted.completed || facts.sentForApproval)
        return 'Send for Approval is completed by sending the lead to an underwriter';
      return null;
    case 3:
      return 'The Decision step is reached by sending the lead to an underwriter';
  }
}

/** The step after the form is saved (spec §4: "saving with validations sets step 1 not completed"). */
export function stepAfterSave(current: LeadStep): LeadStep {
  return current.current_step >= 1 ? current : { current_step: 1, completed: false };
}

/** The step after all four automatic checks finished. */
export function stepAfterChecksFinished(current: LeadStep): LeadStep {
  return current.current_step === 1 ? { current_step: 1, completed: true } : current;
}

/** Spec §4: sending to an underwriter marks step 2 completed and step 3 (Decision) current, not completed. */
export const STEP_AFTER_SENDING: LeadStep = { current_step: 3, completed: false };
/** The underwriter decided. */
export const STEP_AFTER_DECISION: LeadStep = { current_step: 3, completed: true };

/** The step stored for an allowed change: asking again for the current step never un-completes it. */
export function applyStepChange(current: LeadStep, wanted: LeadStep): LeadStep {
  if (wanted.current_step === current.current_step)
    return { current_step: current.current_step, completed: current.completed || wanted.completed };
  return wanted;
}
