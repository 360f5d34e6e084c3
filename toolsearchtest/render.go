package toolsearchtest

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// toolSearch is the name whose calls are tool_search_call items on the
// Responses API.
const toolSearch = "ToolSearch"

// render returns turn as a response body of api; n is the turn's number,
// first the number of calls rendered before it.
func render(api string, n, first int, turn Turn) ([]byte, error) {
	type input = json.RawMessage
	inputs := make([]input, len(turn.Calls))
	for i, c := range turn.Calls {
		in := c.Input
		if in == "" {
			in = "{}"
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(in), &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("the input of call %d (%s) is not a JSON object", i+1, c.Name)
		}
		inputs[i] = input(in)
	}
	id := func(i int, prefix string) string {
		if turn.Calls[i].ID != "" {
			return turn.Calls[i].ID
		}
		return prefix + strconv.Itoa(first+i+1)
	}
	num := strconv.Itoa(n)
	switch api {
	case apiAnthropic:
		content := []any{}
		if turn.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": turn.Text})
		}
		for i, c := range turn.Calls {
			content = append(content, map[string]any{"type": "tool_use", "id": id(i, "toolu_"), "name": c.Name, "input": inputs[i]})
		}
		stop := "end_turn"
		if len(turn.Calls) > 0 {
			stop = "tool_use"
		}
		return json.Marshal(map[string]any{"id": "msg_" + num, "type": "message", "role": "assistant", "model": "scripted",
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}})
	case apiChat:
		msg := map[string]any{"role": "assistant", "content": nil}
		if turn.Text != "" {
			msg["content"] = turn.Text
		}
		finish := "stop"
		if len(turn.Calls) > 0 {
			finish = "tool_calls"
			calls := []any{}
			for i, c := range turn.Calls {
				calls = append(calls, map[string]any{"id": id(i, "call_"), "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": string(inputs[i])}})
			}
			msg["tool_calls"] = calls
		}
		return json.Marshal(map[string]any{"id": "chatcmpl_" + num, "object": "chat.completion", "created": 1, "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg}}})
	default: // apiResponses
		output := []any{}
		if turn.Text != "" {
			output = append(output, map[string]any{"type": "message", "id": "msg_" + num, "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": turn.Text, "annotations": []any{}}}})
		}
		for i, c := range turn.Calls {
			callID := id(i, "call_")
			if c.Name == toolSearch {
				output = append(output, map[string]any{"type": "tool_search_call", "id": "ts_" + callID, "call_id": callID,
					"arguments": inputs[i], "execution": "client", "status": "completed"})
				continue
			}
			output = append(output, map[string]any{"type": "function_call", "id": "fc_" + callID, "call_id": callID,
				"name": c.Name, "arguments": string(inputs[i]), "status": "completed"})
		}
		return json.Marshal(map[string]any{"id": "resp_" + num, "object": "response", "created_at": 1, "status": "completed",
			"model": "scripted", "output": output})
	}
}
