import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type * as z4 from 'zod/v4/core'

/**
 * A react-hook-form form validated by a zod schema (write it with `zod/mini`, whose functions
 * the bundler can drop when unused: the dashboard's shell holds forms) (the form's values are the schema's input,
 * `handleSubmit` hands the parsed output). Validation runs on submit, then again on each change
 * of a field that showed an error, so a message goes away as it is fixed.
 */
export function useZodForm<Schema extends z4.$ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z4.input<Schema>>,
): UseFormReturn<z4.input<Schema>, unknown, z4.output<Schema>> {
  return useForm<z4.input<Schema>, unknown, z4.output<Schema>>({
    // The resolver's overloads do not line up with a generic schema; the types above are its own.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    resolver: zodResolver(schema as any) as any,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  })
}
