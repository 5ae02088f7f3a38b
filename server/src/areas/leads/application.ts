import { LEAD_FORM_FIELDS, type LeadFormField, type PartialForm } from '@paydesk/domain';
import { PDFCheckBox, PDFDocument, PDFDropdown, PDFRadioGroup, PDFTextField } from 'pdf-lib';
import { badRequest } from '../../platform/errors';

/**
 * The merchant's application as a fillable PDF: its AcroForm fields are read with pdf-lib and matched to the lead
 * form's fields by name. A field named like the form's own (first_name, "First Name", "FirstName") matches, and
 * so do the usual names on merchant applications below. Values are kept as text, unchecked: they only prefill
 * the form, which checks everything when it is saved.
 */
const ALIASES: Record<string, LeadFormField> = {
  socialsecuritynumber: 'ssn',
  social: 'ssn',
  dateofbirth: 'dob',
  birthdate: 'dob',
  address: 'home_address',
  homeaddress: 'home_address',
  street: 'home_address',
  city: 'home_city',
  state: 'home_state',
  zip: 'home_zip',
  zipcode: 'home_zip',
  doingbusinessas: 'dba',
  businessname: 'dba',
  legalbusinessname: 'legal_name',
  legalname: 'legal_name',
  ein: 'tin',
  taxid: 'tin',
  federaltaxid: 'tin',
  typeofbusiness: 'business_type',
  businessaddress: 'business_address_1',
  businessaddress1: 'business_address_1',
  businessaddress2: 'business_address_2',
  businesszipcode: 'business_zip',
  routingnumber: 'aba_number',
  aba: 'aba_number',
  abanumber: 'aba_number',
  accountnumber: 'dda_number',
  dda: 'dda_number',
  ddanumber: 'dda_number',
  checkingaccountnumber: 'dda_number',
  noofsalesagents: 'sales_agent',
  salesagents: 'sales_agent',
  yearsinindustry: 'years_industry',
  isosplit: 'iso_split',
};

const key = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const OWN: Record<string, LeadFormField> = Object.fromEntries(LEAD_FORM_FIELDS.map((f) => [key(f), f]));

/** A date written MM/DD/YYYY on a US form, as YYYY-MM-DD; anything else as it is. */
function isoDay(value: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return m ? `${m[3]}-${m[1]?.padStart(2, '0')}-${m[2]?.padStart(2, '0')}` : value.trim();
}

export async function readApplicationFields(bytes: Buffer): Promise<PartialForm> {
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    throw badRequest('The application PDF could not be read');
  }
  const fields: PartialForm = {};
  for (const field of pdf.getForm().getFields()) {
    const target = OWN[key(field.getName())] ?? ALIASES[key(field.getName().split('.').at(-1) ?? '')];
    if (!target || fields[target]) continue;
    let value: string | undefined;
    if (field instanceof PDFTextField) value = field.getText();
    else if (field instanceof PDFDropdown) value = field.getSelected()[0];
    else if (field instanceof PDFRadioGroup) value = field.getSelected();
    else if (field instanceof PDFCheckBox) continue;
    const text = value?.trim().slice(0, 200);
    if (text) fields[target] = target === 'dob' ? isoDay(text) : text;
  }
  if (Object.keys(fields).length === 0)
    throw badRequest(
      'The PDF has no filled-in application fields to read (it must be a fillable application form)',
    );
  return fields;
}
