/** The columns of the import template: the common ones of docs/import-export.md#csv-columns. */
export const templateColumns = [
  'scheduledAt',
  'postingMode',
  'message',
  'accounts',
  'media',
  'altText',
  'thread.1',
];
