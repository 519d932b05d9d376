/**
 * The shapes of a workstation's operators (issue 27) as the core answers them (`operators.*`),
 * shared by main and the renderer like common/views.ts.
 */

export interface OperatorView {
  id: number;
  name: string;
  createdAt: number;
}

/** The operators of this workstation and the one signed in now (null: no operator, the account alone). */
export interface OperatorsView {
  operators: OperatorView[];
  current: OperatorView | null;
}
