import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  definitionProblems,
  evaluateForm,
  validateSubmission,
  type Answers,
  type FormDefinitionShape,
} from '../../../../api/contract/logic/e-form-rules';
import { FormDefinitionSchema } from '../../../../api/contract/apps/e-form';
import { re2Patterns } from '../../../../api/contract/logic/e-form-pattern';

// One claims form, exercised by a table of answers: the same table is the truth for the builder
// preview, the customer page and the server, which all call these functions.
const FORM: FormDefinitionShape = {
  title: 'Claim',
  hiddenFields: [{ key: 'customerRef', label: 'Customer' }],
  fields: [
    { id: 'name', type: 'short_text', label: 'Full name', required: true, validation: { minLength: 2, maxLength: 40 } },
    { id: 'email', type: 'email', label: 'E-mail', required: false },
    { id: 'phone', type: 'phone', label: 'Phone', required: false },
    {
      id: 'policy',
      type: 'short_text',
      label: 'Policy number',
      required: true,
      validation: { pattern: 'P-\\d{6}', patternMessage: 'A policy number looks like P-123456' },
    },
    { id: 'kind', type: 'single_choice', label: 'What happened', required: true, options: ['Theft', 'Damage', 'Other'] },
    // shown only for theft
    {
      id: 'police',
      type: 'short_text',
      label: 'Police report number',
      required: true,
      condition: { action: 'show', match: 'all', rules: [{ fieldId: 'kind', op: 'equals', value: 'Theft' }] },
    },
    { id: 'amount', type: 'number', label: 'Amount', required: false, validation: { min: 1, max: 10000 } },
    // required when the amount is large or the kind is Other
    {
      id: 'details',
      type: 'long_text',
      label: 'Details',
      required: false,
      condition: {
        action: 'require',
        match: 'any',
        rules: [
          { fieldId: 'amount', op: 'greater_than', value: '5000' },
          { fieldId: 'kind', op: 'equals', value: 'Other' },
        ],
      },
    },
    { id: 'when', type: 'date', label: 'Date', required: false, validation: { minDate: '2020-01-01', maxDate: '2030-12-31' } },
    {
      id: 'items',
      type: 'multiple_choice',
      label: 'Items',
      required: false,
      options: ['Phone', 'Laptop', 'Bag'],
      validation: { maxChoices: 2 },
    },
    // hidden unless both: theft and a laptop among the items
    {
      id: 'serial',
      type: 'short_text',
      label: 'Laptop serial',
      required: true,
      condition: {
        action: 'show',
        match: 'all',
        rules: [
          { fieldId: 'kind', op: 'equals', value: 'Theft' },
          { fieldId: 'items', op: 'contains', value: 'Laptop' },
        ],
      },
    },
    { id: 'photo', type: 'file', label: 'Photo', required: false, validation: { maxSizeMb: 1, accept: ['image/*', '.pdf'] } },
    { id: 'agree', type: 'consent', label: 'I agree', required: true },
  ],
};

const BASE: Answers = { name: 'Ada Lovelace', policy: 'P-123456', kind: 'Damage', agree: 'yes' };

const CASES: { name: string; answers: Answers; errors: Record<string, string> }[] = [
  { name: 'the minimum valid answers', answers: BASE, errors: {} },
  {
    name: 'nothing at all',
    answers: {},
    errors: {
      name: 'This field is required',
      policy: 'This field is required',
      kind: 'Please choose an answer',
      agree: 'Please tick this box to continue',
    },
  },
  { name: 'a name too short', answers: { ...BASE, name: 'A' }, errors: { name: 'Use at least 2 characters' } },
  { name: 'a name too long', answers: { ...BASE, name: 'x'.repeat(41) }, errors: { name: 'Use at most 40 characters' } },
  {
    name: 'a pattern miss gets its own message',
    answers: { ...BASE, policy: 'P-12' },
    errors: { policy: 'A policy number looks like P-123456' },
  },
  {
    name: 'a bad e-mail',
    answers: { ...BASE, email: 'ada@' },
    errors: { email: 'Enter an e-mail address such as name@example.com' },
  },
  { name: 'a good e-mail', answers: { ...BASE, email: 'ada@example.com' }, errors: {} },
  { name: 'a bad phone', answers: { ...BASE, phone: '12ab' }, errors: { phone: 'Enter a phone number such as +1 555 123 4567' } },
  { name: 'a good phone', answers: { ...BASE, phone: '+1 (555) 123-4567' }, errors: {} },
  { name: 'a choice not offered', answers: { ...BASE, kind: 'Flood' }, errors: { kind: 'Choose from the options given' } },
  {
    name: 'theft shows the police number, which is then required',
    answers: { ...BASE, kind: 'Theft' },
    errors: { police: 'This field is required' },
  },
  { name: 'theft with a police number', answers: { ...BASE, kind: 'Theft', police: 'PR-1' }, errors: {} },
  { name: 'a hidden required field is not required', answers: { ...BASE, kind: 'Damage', police: '' }, errors: {} },
  { name: 'a number below the range', answers: { ...BASE, amount: '0' }, errors: { amount: 'Enter 1 or more' } },
  {
    name: 'a number above the range',
    answers: { ...BASE, amount: '10001', details: 'x' },
    errors: { amount: 'Enter 10000 or less' },
  },
  { name: 'not a number', answers: { ...BASE, amount: '12abc' }, errors: { amount: 'Enter a number' } },
  {
    name: 'a large amount requires details (or: first rule)',
    answers: { ...BASE, amount: '6000' },
    errors: { details: 'This field is required' },
  },
  {
    name: 'Other requires details (or: second rule)',
    answers: { ...BASE, kind: 'Other' },
    errors: { details: 'This field is required' },
  },
  { name: 'a small amount does not require details', answers: { ...BASE, amount: '50' }, errors: {} },
  {
    name: 'a date that does not exist',
    answers: { ...BASE, when: '2026-02-30' },
    errors: { when: 'Enter a date such as 2026-01-31' },
  },
  { name: 'a date before the range', answers: { ...BASE, when: '2019-12-31' }, errors: { when: 'Enter 2020-01-01 or later' } },
  { name: 'too many choices', answers: { ...BASE, items: ['Phone', 'Laptop', 'Bag'] }, errors: { items: 'Choose at most 2' } },
  {
    name: 'and: theft without a laptop hides the serial',
    answers: { ...BASE, kind: 'Theft', police: 'PR-1', items: ['Phone'] },
    errors: {},
  },
  {
    name: 'and: theft with a laptop requires the serial',
    answers: { ...BASE, kind: 'Theft', police: 'PR-1', items: ['Laptop'] },
    errors: { serial: 'This field is required' },
  },
  { name: 'and: a laptop without theft hides the serial', answers: { ...BASE, items: ['Laptop'] }, errors: {} },
  {
    name: 'a file too large',
    answers: { ...BASE, photo: { name: 'a.png', size: 2 * 1024 * 1024, type: 'image/png' } },
    errors: { photo: 'The file is larger than 1 MB' },
  },
  {
    name: 'a file of a refused type',
    answers: { ...BASE, photo: { name: 'a.exe', size: 10, type: 'application/x-msdownload' } },
    errors: { photo: 'Choose a file of type image/*, .pdf' },
  },
  {
    name: 'a PDF by extension',
    answers: { ...BASE, photo: { name: 'scan.PDF', size: 10, type: 'application/octet-stream' } },
    errors: {},
  },
  { name: 'consent unticked', answers: { ...BASE, agree: '' }, errors: { agree: 'Please tick this box to continue' } },
];

describe('the form evaluator', () => {
  it.each(CASES)('$name', ({ answers, errors }) => {
    expect(validateSubmission(FORM, answers, re2Patterns).errors).toEqual(errors);
  });

  it('keeps only the answers of shown fields, typed, with hidden fields prefilled', () => {
    const { answers } = validateSubmission(FORM, {
      ...BASE,
      customerRef: 'CUST-9',
      police: 'left over',
      amount: '12.5',
      items: 'Bag',
    });
    expect(answers).toEqual({
      customerRef: 'CUST-9',
      name: 'Ada Lovelace',
      policy: 'P-123456',
      kind: 'Damage',
      amount: 12.5,
      items: ['Bag'],
      agree: true,
    });
  });

  it('an answer the customer can no longer see does not drive a later condition', () => {
    const form: FormDefinitionShape = {
      title: 't',
      hiddenFields: [],
      fields: [
        { id: 'a', type: 'consent', label: 'A', required: false },
        {
          id: 'b',
          type: 'short_text',
          label: 'B',
          required: false,
          condition: { action: 'show', match: 'all', rules: [{ fieldId: 'a', op: 'is_not_empty' }] },
        },
        {
          id: 'c',
          type: 'short_text',
          label: 'C',
          required: true,
          condition: { action: 'show', match: 'all', rules: [{ fieldId: 'b', op: 'equals', value: 'x' }] },
        },
      ],
    };
    expect([...evaluateForm(form, { a: true, b: 'x' }).visible]).toEqual(['a', 'b', 'c']);
    expect([...evaluateForm(form, { a: false, b: 'x' }).visible]).toEqual(['a']);
    // hide: shown unless the rule matches
    const hide: FormDefinitionShape = {
      ...form,
      fields: [
        form.fields[0]!,
        { ...form.fields[1]!, condition: { action: 'hide', match: 'any', rules: [{ fieldId: 'a', op: 'is_not_empty' }] } },
      ],
    };
    expect([...evaluateForm(hide, { a: true }).visible]).toEqual(['a']);
    expect([...evaluateForm(hide, {}).visible]).toEqual(['a', 'b']);
  });

  it('a definition whose condition looks ahead, or a choice without options, cannot be published', () => {
    const bad: FormDefinitionShape = {
      title: 'x',
      hiddenFields: [],
      fields: [
        {
          id: 'a',
          type: 'short_text',
          label: 'A',
          required: false,
          condition: { action: 'show', match: 'all', rules: [{ fieldId: 'b', op: 'is_empty' }] },
        },
        { id: 'b', type: 'dropdown', label: 'B', required: false, options: ['only'] },
        { id: 'c', type: 'short_text', label: 'C', required: false, validation: { pattern: '(' } },
      ],
    };
    expect(definitionProblems(bad, re2Patterns)).toEqual({
      a: 'A condition can only use fields above this one',
      b: 'Give at least two options',
      c: expect.stringMatching(/^The pattern cannot be used \(missing closing \)/),
    });
    expect(definitionProblems(FORM, re2Patterns)).toEqual({});
    expect(v.safeParse(FormDefinitionSchema, FORM).success).toBe(true);
  });
});
