"""Unit tests of the error flattening and field naming of the exception handler."""

from apikit.exception_handler import flatten_errors, name_field


def test_required_message_names_the_field():
    assert name_field("codes", "This field is required.") == "The codes field is required."


def test_lowercase_this_field_is_renamed_too():
    message = name_field("items.0.reference", "Ensure this field has no more than 100 characters.")
    assert message == "Ensure the items.0.reference field has no more than 100 characters."


def test_message_without_field_gets_the_field_appended():
    assert name_field("email", "Enter a valid email address.") == (
        "Enter a valid email address (the email field)."
    )


def test_message_already_naming_the_field_is_kept():
    assert name_field("limit", "The limit field must be an integer.") == (
        "The limit field must be an integer."
    )


def test_nested_list_errors_become_dotted_paths_and_valid_items_are_skipped():
    detail = {"items": [{}, {"reference": ["This field is required."]}], "name": ["Bad."]}
    assert flatten_errors(detail) == {
        "items.1.reference": ["The items.1.reference field is required."],
        "name": ["Bad (the name field)."],
    }


def test_non_field_errors_keep_their_message():
    assert flatten_errors({"non_field_errors": ["Passwords differ."]}) == {
        "non_field_errors": ["Passwords differ."]
    }


def test_nested_non_field_errors_attach_to_their_parent():
    detail = {"items": [{"non_field_errors": ["Invalid data."]}]}
    assert flatten_errors(detail) == {"items.0": ["Invalid data (the items.0 field)."]}


def test_plain_string_and_list_details():
    assert flatten_errors("Oops.") == {"non_field_errors": ["Oops."]}
    assert flatten_errors(["A.", "B."]) == {"non_field_errors": ["A.", "B."]}


def test_camel_case_nested_field_is_named_exactly_once():
    detail = {"items": [{"cashOptionId": ["A valid integer is required."]}]}
    assert flatten_errors(detail) == {
        "items.0.cashOptionId": ["A valid integer is required (the items.0.cashOptionId field)."]
    }


def test_list_messages_name_the_field_too():
    assert name_field("items", "This list may not be empty.") == (
        "The items field may not be empty."
    )
