// Package expenses holds expense reports with their reimbursements, and tasks
// with the actions a person takes on them.
package expenses
