/** The public contact address, shown in the contact section and the form's confirmation. */
export const CONTACT_EMAIL = 'hello@vitalwatch.example';
