import { z } from 'zod';

/** Every FHIR error under /fhir/R4: an OperationOutcome with one issue (served as application/fhir+json). */
export const operationOutcomeBody = z.object({
  resourceType: z.literal('OperationOutcome'),
  issue: z.array(
    z.object({
      severity: z.literal('error'),
      code: z.string(),
      diagnostics: z.string(),
      expression: z.array(z.string()).optional(),
    }),
  ),
});
