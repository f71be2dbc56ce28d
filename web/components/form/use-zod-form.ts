import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { z } from 'zod'

/**
 * A react-hook-form form validated by a zod schema (the form's values are the schema's input,
 * `handleSubmit` hands the parsed output). Validation runs on submit, then again on each change
 * of a field that showed an error, so a message goes away as it is fixed.
 */
export function useZodForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
): UseFormReturn<z.input<Schema>, unknown, z.output<Schema>> {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    // The resolver's overloads do not line up with a generic schema; the types above are its own.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    resolver: zodResolver(schema as any) as any,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  })
}
